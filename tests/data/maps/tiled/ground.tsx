<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="ground" tilewidth="32" tileheight="32" tilecount="2" columns="2">
 <image source="ground.png" width="64" height="32"/>
 <tile id="0">
  <properties>
   <property name="terrain" value="grass"/>
  </properties>
 </tile>
</tileset>

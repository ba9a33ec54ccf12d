<?xml version="1.0" encoding="UTF-8"?>
<tileset name="floor" tilewidth="32" tileheight="32" tilecount="2" columns="2">
 <image source="floor.png" width="64" height="32"/>
 <tile id="0">
  <properties>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
</tileset>

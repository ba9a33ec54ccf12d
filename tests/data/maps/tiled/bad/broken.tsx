<?xml version="1.0" encoding="UTF-8"?>
<tileset name="floor">
 <tile id="0">
</tileset>

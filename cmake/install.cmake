# What `cmake --install build --prefix P` installs (GNU install directories),
# and the .deb CPack makes of it (`cmake --build build --target package`,
# or `cpack -G DEB` in the build directory). README.md, "Install".
#
#   P/bin/td                             (in the .deb: /usr/games/td)
#   P/share/td/{maps,scripts,assets}     the data directory (engine/game/datadir.h:
#                                        an installed td finds it as ../share/td)
#   P/share/doc/td/                      README.md, docs/, copyright, changelog.Debian.gz
#   P/share/man/man6/td.6.gz             packaging/td.6
#   P/share/applications/td.desktop      packaging/td.desktop
#   P/share/icons/hicolor/NxN/apps/td.png  packaging/icons (packaging/gen_icon.py)

set(TD_DATA_DEST ${CMAKE_INSTALL_DATADIR}/td)
set(TD_FILE_PERMS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
set(TD_DIR_PERMS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
  WORLD_READ WORLD_EXECUTE)
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS ${TD_DIR_PERMS})

# Components: "bin" is the executable in bin/ (cmake --install), "data"
# everything else; the .deb takes "data" and "deb", the same executable in
# /usr/games as Debian's policy wants of a game (the data directory stays
# ../share/td from there).
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME data)
install(TARGETS td RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT bin)
install(TARGETS td RUNTIME DESTINATION games COMPONENT deb EXCLUDE_FROM_ALL)

# The bundled maps: Tiled's files (maps, tilesets, templates, the project and
# its object types) and the Lua exports; not their generator.
install(DIRECTORY maps/ DESTINATION ${TD_DATA_DEST}/maps
  FILE_PERMISSIONS ${TD_FILE_PERMS} DIRECTORY_PERMISSIONS ${TD_DIR_PERMS}
  FILES_MATCHING
  PATTERN "*.lua" PATTERN "*.tmx" PATTERN "*.tmj" PATTERN "*.tsx" PATTERN "*.tsj"
  PATTERN "*.tx" PATTERN "*.tj" PATTERN "*.tiled-project" PATTERN "*.xml" PATTERN "*.png"
  PATTERN "__pycache__" EXCLUDE)
# The mods (the bundled one, the tutorial's), the LuaLS stubs and the editor
# settings for them.
install(DIRECTORY scripts/base scripts/tutorial scripts/types DESTINATION ${TD_DATA_DEST}/scripts
  FILE_PERMISSIONS ${TD_FILE_PERMS} DIRECTORY_PERMISSIONS ${TD_DIR_PERMS})
install(FILES scripts/.luarc.json DESTINATION ${TD_DATA_DEST}/scripts PERMISSIONS ${TD_FILE_PERMS})
# Sprites and font; not their generator (assets/gen).
install(DIRECTORY assets/ DESTINATION ${TD_DATA_DEST}/assets
  FILE_PERMISSIONS ${TD_FILE_PERMS} DIRECTORY_PERMISSIONS ${TD_DIR_PERMS}
  PATTERN "gen" EXCLUDE)

# Documentation: README.md beside docs/ as in the source tree, so that its
# links and pictures work where it is installed.
install(FILES README.md packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR}
  PERMISSIONS ${TD_FILE_PERMS})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  FILE_PERMISSIONS ${TD_FILE_PERMS} DIRECTORY_PERMISSIONS ${TD_DIR_PERMS}
  FILES_MATCHING PATTERN "*.md" PATTERN "*.png")

# The manual page and the Debian changelog, compressed at build time
# (gzip -n: no name or time stamp, the same bytes every build).
find_program(TD_GZIP gzip)
if(NOT TD_GZIP)
  message(FATAL_ERROR "gzip not found (it compresses the manual page)")
endif()
set(TD_PKG_OUT ${PROJECT_BINARY_DIR}/packaging)
add_custom_command(OUTPUT ${TD_PKG_OUT}/td.6.gz ${TD_PKG_OUT}/changelog.Debian.gz
  COMMAND ${CMAKE_COMMAND} -E make_directory ${TD_PKG_OUT}
  COMMAND ${TD_GZIP} -9nc ${PROJECT_SOURCE_DIR}/packaging/td.6 > ${TD_PKG_OUT}/td.6.gz
  COMMAND ${TD_GZIP} -9nc ${PROJECT_SOURCE_DIR}/packaging/changelog > ${TD_PKG_OUT}/changelog.Debian.gz
  DEPENDS packaging/td.6 packaging/changelog
  COMMENT "td.6.gz, changelog.Debian.gz")
add_custom_target(td_packaging ALL DEPENDS ${TD_PKG_OUT}/td.6.gz ${TD_PKG_OUT}/changelog.Debian.gz)
install(FILES ${TD_PKG_OUT}/td.6.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man6 PERMISSIONS ${TD_FILE_PERMS})
install(FILES ${TD_PKG_OUT}/changelog.Debian.gz DESTINATION ${CMAKE_INSTALL_DOCDIR}
  PERMISSIONS ${TD_FILE_PERMS})

# The desktop entry and its icon.
install(FILES packaging/td.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
  PERMISSIONS ${TD_FILE_PERMS})
foreach(size 32 64 128)
  install(FILES packaging/icons/td-${size}.png
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
    RENAME td.png PERMISSIONS ${TD_FILE_PERMS})
endforeach()

# ---- the .deb -----------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME td)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the td authors")
set(CPACK_PACKAGE_CONTACT "td maintainers <maintainers@users.noreply.a-seed-400ced71.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "tower-defense game whose enemies re-route round your towers")
set(CPACK_PACKAGE_DESCRIPTION "td is a tower-defense game and the engine under it. Enemies walk a
road drawn in Tiled and re-route at once round every tower placed beside it;
a tower that would cut a spawn off from every goal is refused. The game has
six maps, six towers with upgrade trees, soldiers, nine enemies, bosses, an
endless mode and three difficulties. Its rules are sandboxed Lua mods, and
whole games also play headless with a built-in player, replays checked by
checksum and behaviour scenarios.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};td;data;/;${PROJECT_BINARY_DIR};td;deb;/")
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS ${TD_DIR_PERMS})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

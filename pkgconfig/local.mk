pkgconfig_DATA = pkgconfig/libvelstatus.pc
DISTCLEANFILES += pkgconfig/libvelstatus-uninstalled.pc

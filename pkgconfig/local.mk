# SPDX-License-Identifier: Apache-2.0
pkgconfig_DATA = pkgconfig/libvelstatus.pc
DISTCLEANFILES += pkgconfig/libvelstatus-uninstalled.pc

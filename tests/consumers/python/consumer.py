# SPDX-License-Identifier: Apache-2.0
"""A Python program outside the source tree: imports the installed velstatus
package, classifies one BSL list and prints "velstatus VERSION: STATUS"
(tests/install-consumers.sh and scripts/ci-deb.sh run it)."""

import velstatus

BSLS = [{"metadata": {"name": "default"}, "spec": {"default": True, "accessMode": "ReadOnly"},
         "status": {"phase": "Available"}}]

print("velstatus %s: %s" % (velstatus.version(), velstatus.server_status(BSLS).status))

// SPDX-License-Identifier: Apache-2.0
module libvelstatus.invalid/velstatus

go 1.19

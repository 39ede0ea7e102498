// SPDX-License-Identifier: Apache-2.0
module libvelstatus.invalid/velstatus/examples/go

go 1.19

require libvelstatus.invalid/velstatus v0.0.0

replace libvelstatus.invalid/velstatus => ../../bindings/go

// SPDX-License-Identifier: Apache-2.0
module libvelstatus.invalid/bench/go-peer

go 1.19

module libvelstatus.invalid/velstatus

go 1.19

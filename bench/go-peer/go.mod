module velstatus.local/bench/go-peer

go 1.19

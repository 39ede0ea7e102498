// SPDX-License-Identifier: Apache-2.0

package velstatus

// This file holds only the //export functions that the C trampolines of
// shim.c call. Its preamble has declarations only, as cgo requires of a
// file with //export.
//
// Every function here recovers panics (they must not unwind through the
// library's C frames), records the first error or panic on the call's
// callbackTarget, and returns a negative code; the Go API call returns the
// recorded error once the library is back.

/*
#include <velstatus.h>
*/
import "C"

import (
	"errors"
	"runtime"
	"time"
)

// ---- server status step (velstatus_server_status_host) ----

//export vsGoServerListBSLs
func vsGoServerListBSLs(h C.uintptr_t, reply *C.velstatus_bsls_reply) (ret C.int) {
	call := cellValue(h).(*serverStepCall)
	defer call.target.recoverInto(&ret)
	if call.target.stop() {
		return hostFailure
	}
	b, err := call.host.ListBSLs()
	if err != nil {
		return call.target.fail(err)
	}
	// The library decodes the text during this call, so Go memory will do;
	// a decoding failure is the step's result (with its JSON path).
	p, n := cbuf(b)
	C.velstatus_bsls_reply_set_json(reply, p, n, nil)
	runtime.KeepAlive(b)
	return 0
}

//export vsGoServerReadStatus
func vsGoServerReadStatus(h C.uintptr_t, has *C.int, status *C.velstatus_server_status, reasons *C.uint32_t) (ret C.int) {
	call := cellValue(h).(*serverStepCall)
	defer call.target.recoverInto(&ret)
	if call.target.stop() {
		return hostFailure
	}
	s, rs, ok, err := call.reader.ReadStatus()
	if err != nil {
		return call.target.fail(err)
	}
	if !ok {
		*has = 0
		return 0
	}
	cs, err := s.cvalue()
	if err != nil {
		return call.target.fail(err)
	}
	mask, err := reasonMask(rs)
	if err != nil {
		return call.target.fail(err)
	}
	*has, *status, *reasons = 1, cs, mask
	return 0
}

//export vsGoServerPublish
func vsGoServerPublish(h C.uintptr_t, status C.velstatus_server_status, reasons C.uint32_t, json *C.char, n C.size_t) (ret C.int) {
	call := cellValue(h).(*serverStepCall)
	defer call.target.recoverInto(&ret)
	if call.target.stop() {
		return hostFailure
	}
	js := []byte(gsn(json, n)) // size_t throughout: never narrowed to C.int
	// A failed publish is one failed attempt of the retry driver: it is
	// recorded for Classify and for the step's error, not as the call's
	// failure (a later attempt may succeed).
	call.publishes++
	err := call.host.Publish(ServerState(status), reasonsOf(reasons), js)
	call.record(call.publishes, err)
	if err != nil {
		return hostFailure
	}
	return 0
}

// ---- retry drivers (velstatus_retry_host) ----

//export vsGoRetryAttempt
func vsGoRetryAttempt(h C.uintptr_t, attempt C.uint64_t, reply *C.velstatus_retry_reply) (ret C.int) {
	call := cellValue(h).(*retryCall)
	defer call.target.recoverInto(&ret)
	if call.target.stop() {
		return hostFailure
	}
	err := call.fn()
	call.record(uint64(attempt), err)
	if err != nil {
		// The library copies the text during this call.
		msg := []byte(err.Error())
		p, n := cbuf(msg)
		st := C.velstatus_retry_reply_set_error(reply, p, n, nil)
		runtime.KeepAlive(msg)
		if st != C.VELSTATUS_OK {
			return hostFailure // E_NOMEM: the run ends with it
		}
	}
	return 0
}

// The hook trampolines serve both the retry drivers and the server step's
// publish retries. After a panic they fail at once, which ends the run.

//export vsGoRetryClassify
func vsGoRetryClassify(h C.uintptr_t, attempt C.uint64_t, text *C.char, n C.size_t, cls *C.velstatus_retry_class, interrupted *C.int) (ret C.int) {
	st := cellValue(h).(hooked).state()
	defer st.target.recoverInto(&ret)
	if st.target.stop() {
		return hostFailure
	}
	err := st.errOf(uint64(attempt))
	if err == nil {
		err = errors.New(gsn(text, n))
	}
	c, intr := st.hooks.Classify(err)
	*cls = C.velstatus_retry_class(c)
	*interrupted = cbool(intr)
	return 0
}

//export vsGoRetrySleep
func vsGoRetrySleep(h C.uintptr_t, ns C.int64_t) (ret C.int) {
	st := cellValue(h).(hooked).state()
	defer st.target.recoverInto(&ret)
	if st.target.stop() {
		return hostFailure
	}
	if err := st.hooks.Sleep(time.Duration(ns)); err != nil {
		return st.target.fail(err)
	}
	return 0
}

//export vsGoRetryRandom
func vsGoRetryRandom(h C.uintptr_t, r *C.double) (ret C.int) {
	st := cellValue(h).(hooked).state()
	defer st.target.recoverInto(&ret)
	if st.target.stop() {
		return hostFailure
	}
	*r = C.double(st.hooks.Random())
	return 0
}

//export vsGoRetryNow
func vsGoRetryNow(h C.uintptr_t, ns *C.int64_t) (ret C.int) {
	st := cellValue(h).(hooked).state()
	defer st.target.recoverInto(&ret)
	if st.target.stop() {
		return hostFailure
	}
	t := st.hooks.Now()
	if !st.began {
		st.start, st.began = t, true
	}
	*ns = C.int64_t(t.Sub(st.start))
	return 0
}

// ---- reconcile plugin client (velstatus_plugin_client) ----

//export vsGoPluginProgress
func vsGoPluginProgress(h C.uintptr_t, list *C.velstatus_oplist, index C.size_t, reply *C.velstatus_op_reply) (ret C.int) {
	call := cellValue(h).(*reconcileCall)
	defer call.target.recoverInto(&ret)
	if call.target.stop() {
		return hostFailure
	}
	r, perr := call.client.Progress(int(index), opFromC(C.velstatus_oplist_at(list, index)))
	var abort *AbortError
	if errors.As(perr, &abort) {
		return call.target.fail(abort)
	}
	cp, err := toCProgress(r, perr)
	if err != nil {
		return call.target.fail(err)
	}
	defer cp.free()
	var cerr C.velstatus_error
	if st := C.velstatus_op_reply_set_progress(reply, &cp.c, &cerr); st != C.VELSTATUS_OK {
		return call.target.fail(newError(st, &cerr))
	}
	return 0
}

//export vsGoPluginCancel
func vsGoPluginCancel(h C.uintptr_t, list *C.velstatus_oplist, index C.size_t, reply *C.velstatus_op_reply) (ret C.int) {
	call := cellValue(h).(*reconcileCall)
	defer call.target.recoverInto(&ret)
	if call.target.stop() {
		return hostFailure
	}
	cerrGo := call.client.Cancel(int(index), opFromC(C.velstatus_oplist_at(list, index)))
	if cerrGo == nil {
		return 0
	}
	var abort *AbortError
	if errors.As(cerrGo, &abort) {
		return call.target.fail(abort)
	}
	msg := []byte(cerrGo.Error())
	p, n := cbuf(msg)
	var cerr C.velstatus_error
	st := C.velstatus_op_reply_set_cancel_error(reply, p, n, &cerr)
	if st != C.VELSTATUS_OK {
		return call.target.fail(newError(st, &cerr))
	}
	return 0
}

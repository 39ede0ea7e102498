// SPDX-License-Identifier: Apache-2.0

package velstatus

/*
#include <stdlib.h>
#include <velstatus.h>
*/
import "C"

import (
	"context"
	"fmt"
	"runtime/cgo"
	"runtime/debug"
	"unsafe"
)

// hostCell carries a Go value to C callbacks (doc/conventions.md §8): the value is
// wrapped in a runtime/cgo.Handle, and the handle's integer lives in a
// C-allocated uintptr_t whose address is the vtable's userdata. C may keep
// that address after the call returns (the library copies vtables into its
// objects), which it could not do with a Go pointer.
type hostCell struct {
	p *C.uintptr_t
	h cgo.Handle
}

// newHostCell wraps v; release it with free.
func newHostCell(v interface{}) *hostCell {
	p := (*C.uintptr_t)(C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
	if p == nil {
		panic("velstatus: out of memory")
	}
	h := cgo.NewHandle(v)
	*p = C.uintptr_t(h)
	return &hostCell{p: p, h: h}
}

// userdata is the pointer to pass as the vtable's userdata.
func (c *hostCell) userdata() unsafe.Pointer { return unsafe.Pointer(c.p) }

// free deletes the handle and the C cell; it is idempotent.
func (c *hostCell) free() {
	if c.p != nil {
		c.h.Delete()
		C.free(unsafe.Pointer(c.p))
		c.p = nil
	}
}

// cellValue returns the Go value behind a cell's integer (the C trampoline
// dereferences userdata and passes the integer).
func cellValue(h C.uintptr_t) interface{} { return cgo.Handle(h).Value() }

// callbackTarget collects what a call's Go callbacks failed with, for the
// call to return once C is back (git2go's errorTarget pattern). Only the
// first failure is kept: later callbacks of the same call see it and may
// stop early.
type callbackTarget struct {
	err error
	ctx context.Context // the call's context; nil for calls that take none
}

// stop reports whether the remaining callbacks must fail at once: one
// panicked, or the call's context is done (its error is then recorded, so
// the call returns it: errors.Is(err, context.Canceled) holds). Every
// trampoline asks before running Go code, so a cancellation is honoured
// between attempts and between callbacks.
func (t *callbackTarget) stop() bool {
	if t.panicked() {
		return true
	}
	if t.ctx != nil {
		if err := t.ctx.Err(); err != nil {
			t.fail(err)
			return true
		}
	}
	return false
}

// panicked reports whether a callback of this call panicked: the remaining
// callbacks then fail at once, so that a driver that retries a failed
// callback (the server step's publish) stops instead of going on.
func (t *callbackTarget) panicked() bool {
	_, ok := t.err.(*PanicError)
	return ok
}

// hostFailure is the negative code every trampoline returns for a Go error
// or panic (the library reports it as VELSTATUS_E_HOST with this host code).
const hostFailure = -1

// fail records err and returns the code for the trampoline.
func (t *callbackTarget) fail(err error) C.int {
	if t.err == nil {
		t.err = err
	}
	return hostFailure
}

// recoverInto is deferred by every //export function: a panic is recovered
// (it must not unwind through the C frames), stored as a *PanicError, and
// the callback returns hostFailure through *ret.
func (t *callbackTarget) recoverInto(ret *C.int) {
	if r := recover(); r != nil {
		t.fail(&PanicError{Value: r, Stack: debug.Stack()})
		*ret = hostFailure
	}
}

// result turns the C status of the call into the Go error: a stored
// callback failure wins (wrapped in an *Error with StatusHost when C
// reported one, so errors.Is(err, ErrHost) and errors.As to the callback's
// own error both work); a panic is returned even when the library went on
// (a callback failure the policy ignores, such as a Cancel error under the
// Velero preset), because a panic is a bug that must not vanish.
func (t *callbackTarget) result(st C.velstatus_status, cerr *C.velstatus_error) error {
	if t.err != nil {
		_, isPanic := t.err.(*PanicError)
		if st == C.VELSTATUS_E_HOST {
			e := newError(st, cerr)
			e.cause = t.err
			return e
		}
		if isPanic {
			return &Error{Code: StatusHost, HostCode: hostFailure,
				Message: "a Go callback panicked", cause: t.err}
		}
	}
	return check(st, cerr)
}

// errorf builds an *Error of the given status.
func errorf(code Status, format string, args ...interface{}) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

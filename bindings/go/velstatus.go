// SPDX-License-Identifier: Apache-2.0

// Package velstatus is the Go binding of libvelstatus, Velero's status
// decisions as a pure, I/O-free C library: server status from the
// BackupStorageLocations, the item-operation state machine, progress
// aggregation and describe text, status-patch retries, and phases.
//
// The binding links the static archive through
// `pkg-config --static libvelstatus` and uses only the standard library.
//
// # Errors
//
// Every fallible call returns an error of type *Error carrying the C status
// code, the library's message (which names the JSON path) and, for JSON
// input, the 1-based line, column and byte offset. Match it by status with
// errors.Is against the sentinels ErrNoMem, ErrInvalid, ErrParse, ErrSchema,
// ErrHost, ErrABI, ErrRange, ErrState and ErrInternal:
//
//	if errors.Is(err, velstatus.ErrParse) { ... }
//
// An error returned by a Go callback, or a panic inside one, comes back from
// the call that ran the callback as an *Error with Code StatusHost that
// wraps it: errors.Is / errors.As reach the callback's own error, and a
// panic is wrapped in a *PanicError.
//
// # Enumerations
//
// Phases, kinds, presets and the other enumerations are integer types whose
// values are the C enum values; their String methods call the library's
// to_string functions, so the binding keeps no second table of names.
//
// # Threads
//
// libvelstatus has no global state. Every object of this package (a
// Context, a Tracker, ...) serialises its own C calls with a mutex, so it
// may be shared between goroutines; distinct objects run in parallel.
// Callbacks run synchronously on the goroutine that made the call.
package velstatus

/*
#cgo pkg-config: --static libvelstatus
#include <stdlib.h>
#include <velstatus.h>
*/
import "C"

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Status is a libvelstatus status code (velstatus_status). Its values never
// change; new codes are appended.
type Status int

// The status codes, with the values of the C enum.
const (
	StatusOK          Status = C.VELSTATUS_OK
	StatusNoMem       Status = C.VELSTATUS_E_NOMEM
	StatusInvalid     Status = C.VELSTATUS_E_INVALID
	StatusParse       Status = C.VELSTATUS_E_PARSE
	StatusSchema      Status = C.VELSTATUS_E_SCHEMA
	StatusHost        Status = C.VELSTATUS_E_HOST
	StatusABI         Status = C.VELSTATUS_E_ABI
	StatusRange       Status = C.VELSTATUS_E_RANGE
	StatusState       Status = C.VELSTATUS_E_STATE
	StatusPassthrough Status = C.VELSTATUS_PASSTHROUGH
	StatusInternal    Status = C.VELSTATUS_E_INTERNAL
)

// String returns the C identifier, e.g. "VELSTATUS_E_PARSE"
// (velstatus_status_name).
func (s Status) String() string {
	return C.GoString(C.velstatus_status_name(C.velstatus_status(s)))
}

// Describe returns the library's human-readable text for the status, e.g.
// "malformed input" (velstatus_status_str).
func (s Status) Describe() string {
	return C.GoString(C.velstatus_status_str(C.velstatus_status(s)))
}

// Error is a failed libvelstatus call: the C velstatus_error, copied.
type Error struct {
	Code     Status // the status the call returned
	HostCode int    // the callback's own return value when Code is StatusHost
	Line     uint32 // 1-based line in JSON input; 0 when not applicable
	Column   uint32 // 1-based column in JSON input; 0 when not applicable
	Offset   uint64 // byte offset in the input; 0 when not applicable
	Message  string // the library's message (names the JSON path)

	cause error // the Go callback's error or panic behind a StatusHost
}

// Sentinel errors for errors.Is: an *Error matches the sentinel of its Code.
var (
	ErrNoMem    = &Error{Code: StatusNoMem, Message: StatusNoMem.Describe()}
	ErrInvalid  = &Error{Code: StatusInvalid, Message: StatusInvalid.Describe()}
	ErrParse    = &Error{Code: StatusParse, Message: StatusParse.Describe()}
	ErrSchema   = &Error{Code: StatusSchema, Message: StatusSchema.Describe()}
	ErrHost     = &Error{Code: StatusHost, Message: StatusHost.Describe()}
	ErrABI      = &Error{Code: StatusABI, Message: StatusABI.Describe()}
	ErrRange    = &Error{Code: StatusRange, Message: StatusRange.Describe()}
	ErrState    = &Error{Code: StatusState, Message: StatusState.Describe()}
	ErrInternal = &Error{Code: StatusInternal, Message: StatusInternal.Describe()}
)

// word is the status in Go's error style: "parse", "invalid argument", ...
func (s Status) word() string {
	switch s {
	case StatusNoMem:
		return "out of memory"
	case StatusInvalid:
		return "invalid argument"
	case StatusParse:
		return "parse"
	case StatusSchema:
		return "schema"
	case StatusHost:
		return "host callback"
	case StatusABI:
		return "abi"
	case StatusRange:
		return "range"
	case StatusState:
		return "state"
	case StatusInternal:
		return "internal"
	}
	return fmt.Sprintf("status %d", int(s))
}

// Error formats the error in Go's style, "velstatus: parse: MESSAGE (line
// L, column C)" (the position only when known); the code itself stays
// reachable through errors.Is(err, ErrParse) and errors.As(err, &e).
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Code.Describe()
	}
	if e.Line > 0 {
		msg = fmt.Sprintf("%s (line %d, column %d)", msg, e.Line, e.Column)
	}
	if e.cause != nil && e.Code == StatusHost {
		msg = fmt.Sprintf("%s: %v", msg, e.cause)
	}
	return "velstatus: " + e.Code.word() + ": " + msg
}

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, ErrParse) matches every parse error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Unwrap returns the Go error (or *PanicError) of the callback behind a
// StatusHost error, or nil.
func (e *Error) Unwrap() error { return e.cause }

// PanicError is a panic recovered inside a Go callback. The call that ran
// the callback returns it, wrapped in an *Error with Code StatusHost.
type PanicError struct {
	Value interface{} // the value passed to panic
	Stack []byte      // the callback goroutine's stack at the panic
}

func (p *PanicError) Error() string { return fmt.Sprintf("callback panicked: %v", p.Value) }

// Unwrap returns the panic value when it is an error.
func (p *PanicError) Unwrap() error {
	if err, ok := p.Value.(error); ok {
		return err
	}
	return nil
}

// newError copies a C error. The status st wins over cerr.code, which a
// callee might have left unset.
func newError(st C.velstatus_status, cerr *C.velstatus_error) *Error {
	e := &Error{
		Code:     Status(st),
		HostCode: int(cerr.host_code),
		Line:     uint32(cerr.line),
		Column:   uint32(cerr.column),
		Offset:   uint64(cerr.offset),
		Message:  C.GoString(&cerr.message[0]),
	}
	return e
}

// enumString is the String of an enum backed by a C _to_string: the token,
// or "Type(N)" for a value outside the enum (NULL from C).
func enumString(token *C.char, typ string, v int) string {
	if token != nil {
		return C.GoString(token)
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// flagString is the String of a bit-set enum: its flags' tokens joined
// with "|", "0" for none, "Type(0xN)" when a bit has no token.
func flagString(v uint32, typ string, token func(bit uint32) *C.char) string {
	if v == 0 {
		return "0"
	}
	var parts []string
	for i := uint(0); i < 32; i++ {
		bit := uint32(1) << i
		if v&bit == 0 {
			continue
		}
		p := token(bit)
		if p == nil {
			return fmt.Sprintf("%s(%#x)", typ, v)
		}
		parts = append(parts, C.GoString(p))
	}
	return strings.Join(parts, "|")
}

// check turns a C status into nil or an *Error.
func check(st C.velstatus_status, cerr *C.velstatus_error) error {
	if st == C.VELSTATUS_OK {
		return nil
	}
	return newError(st, cerr)
}

// Version returns the linked library's version, e.g. "1.0.0".
func Version() string { return C.GoString(C.velstatus_version_string()) }

// VersionNumber returns the linked library's version as
// (major << 16) | (minor << 8) | patch.
func VersionNumber() uint32 { return uint32(C.velstatus_version_number()) }

// archiveChecksum is set by run-tests.sh (-ldflags -X) to the checksum of
// the linked libvelstatus.a, so that a rebuilt archive relinks the tests.
var archiveChecksum string

// HeaderVersion is the version of the headers this package was compiled
// against.
const HeaderVersion = C.VELSTATUS_VERSION_STRING

func init() {
	// doc/conventions.md §6: bindings check the major version at init.
	if got := VersionNumber() >> 16; got != uint32(C.VELSTATUS_VERSION_MAJOR) {
		panic(fmt.Sprintf("velstatus: linked libvelstatus %s has major version %d, headers %s",
			Version(), got, HeaderVersion))
	}
}

// cctx is the C context type, named for the tests (which cannot use cgo).
type cctx = C.velstatus_ctx

// Context owns a velstatus_ctx (the C library's allocation context, using
// the C allocator). Objects that keep C memory hold one; Close releases it.
// A Context serialises the C calls made through it.
type Context struct {
	mu      sync.Mutex
	c       *C.velstatus_ctx
	closed  bool
	cbOwner atomic.Int64 // the goroutine whose call is running callbacks under mu; 0 when none
}

// NewContext creates a context.
func NewContext() (*Context, error) {
	var cerr C.velstatus_error
	var c *C.velstatus_ctx
	if err := check(C.velstatus_ctx_new(&c, nil, &cerr), &cerr); err != nil {
		return nil, err
	}
	ctx := &Context{c: c}
	runtime.SetFinalizer(ctx, (*Context).Close)
	return ctx, nil
}

// Close releases the context. It is safe to call more than once; the
// finalizer calls it for a Context that was never closed.
func (ctx *Context) Close() error {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if !ctx.closed {
		ctx.closed = true
		C.velstatus_ctx_free(ctx.c)
		ctx.c = nil
		runtime.SetFinalizer(ctx, nil)
	}
	return nil
}

// errClosed is returned by calls on a closed object.
func errClosed(what string) error {
	return &Error{Code: StatusState, Message: what + " is closed"}
}

// goid is the current goroutine's id, read from its stack header
// ("goroutine 7 [running]:"). It is read only on the slow paths below: a
// call that runs callbacks, and a lock that is already taken.
func goid() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseInt(string(b), 10, 64)
	return id
}

// errReentered is the error of a callback that calls back into the object
// whose call is running it (Python raises StateError there too).
func errReentered() error {
	return &Error{Code: StatusState, Message: "a callback re-entered the object whose call is running it"}
}

// lock takes the lock, or returns errReentered when this goroutine's own
// call holds it while running callbacks (cgo runs a callback on the
// goroutine that made the C call, so waiting would deadlock).
func (ctx *Context) lock() error {
	if ctx.mu.TryLock() {
		return nil
	}
	if id := ctx.cbOwner.Load(); id != 0 && id == goid() {
		return errReentered()
	}
	ctx.mu.Lock()
	return nil
}

// doCallbacks is do for a call whose callbacks run Go code.
func (ctx *Context) doCallbacks(fn func(c *cctx) error) error {
	return ctx.do(func(c *cctx) error {
		ctx.cbOwner.Store(goid())
		defer ctx.cbOwner.Store(0)
		return fn(c)
	})
}

// do runs fn with the C context, holding the lock; ErrState after Close.
func (ctx *Context) do(fn func(c *cctx) error) error {
	if err := ctx.lock(); err != nil {
		return err
	}
	defer ctx.mu.Unlock()
	if ctx.closed {
		return errClosed("velstatus.Context")
	}
	err := fn(ctx.c)
	runtime.KeepAlive(ctx)
	return err
}

// withTempContext runs fn with a fresh context freed afterwards: the
// package-level functions use one per call, so they are safe for
// concurrent use without sharing state.
func withTempContext(fn func(c *C.velstatus_ctx) error) error {
	var cerr C.velstatus_error
	var c *C.velstatus_ctx
	if err := check(C.velstatus_ctx_new(&c, nil, &cerr), &cerr); err != nil {
		return err
	}
	defer C.velstatus_ctx_free(c)
	return fn(c)
}

// cbuf returns a pointer and length for passing b to C for the duration of
// one call (b holds no Go pointers, so cgo allows it). An empty slice
// becomes (NULL, 0).
func cbuf(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// takeString copies a NUL-terminated buffer returned by the library and
// frees it with velstatus_free.
func takeString(c *C.velstatus_ctx, p *C.char, n C.size_t) string {
	if p == nil {
		return ""
	}
	s := string(unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)))
	C.velstatus_free(c, unsafe.Pointer(p))
	return s
}

// goStr converts a borrowed C string; NULL gives "".
func goStr(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

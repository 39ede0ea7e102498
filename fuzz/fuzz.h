/* SPDX-License-Identifier: Apache-2.0 */
/* The fuzz targets' shared code: the input format, the pipelines, and the
 * environment that lets the same pipeline run plainly (one target per
 * pipeline) or with allocations failing on a countdown (the OOM target).
 * doc/fuzzing.md describes the targets, the input format and how to add one. */
#ifndef VS_FUZZ_H
#define VS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <velstatus.h>

#include "failalloc.h"

/* ---- the input ----------------------------------------------------------
 * A fuzz input is `TEXT` or `TEXT "\n--\n" TAIL`. TEXT is what the parser
 * reads (JSON, a timestamp, a duration); it never needs the separator, since
 * valid JSON cannot contain a raw newline followed by "--". TAIL, then an
 * xorshift stream seeded from the whole input, answer every other choice a
 * pipeline makes (options, the fake plugin's answers, the host's edits), so
 * a plain JSON file is a complete input and the fuzzer can steer the choices
 * by appending a tail. */
#define VS_FUZZ_SEP "\n--\n"

typedef struct vs_fuzz_in {
    const char *text; /* before the first separator (or the whole input) */
    size_t text_len;
    const uint8_t *tail; /* after it (NULL, 0 when there is none) */
    size_t tail_len;
    size_t pos;   /* bytes of tail consumed */
    uint64_t rng; /* xorshift64 state, used once the tail is consumed */
} vs_fuzz_in;

void vs_fuzz_in_init(vs_fuzz_in *in, const uint8_t *data, size_t size);
/* The next byte of the tail, or of the stream once the tail is consumed. */
uint8_t vs_fuzz_byte(vs_fuzz_in *in);
/* A number in [0, n), n >= 1. */
size_t vs_fuzz_pick(vs_fuzz_in *in, size_t n);
/* An int64: one of `n` interesting values or, one time in four, 8 raw bytes. */
int64_t vs_fuzz_int(vs_fuzz_in *in, const int64_t *table, size_t n);
/* A text: a length byte then that many tail bytes, or one of a few
 * interesting texts (empty, invalid UTF-8, a NUL, HTML, a long one) once the
 * tail is consumed. *s stays valid for the whole run. */
void vs_fuzz_text(vs_fuzz_in *in, const char **s, size_t *len);
/* A 64-bit FNV-1a hash of the input, mixed with `salt`. */
uint64_t vs_fuzz_hash(const uint8_t *data, size_t size, uint64_t salt);

/* ---- the environment ----------------------------------------------------- */
enum { VS_FUZZ_MAX_STAGES = 64, VS_FUZZ_MEMOS = 2 };

typedef enum vs_fuzz_mode {
    VS_FUZZ_PLAIN = 0,   /* a plain target: malloc, every check on */
    VS_FUZZ_OOM_REF = 1, /* the OOM target's reference run: count allocations, fail none */
    VS_FUZZ_OOM_FAIL = 2 /* the OOM target's countdown run: fail allocation #fail_at */
} vs_fuzz_mode;

typedef struct vs_fuzz_env {
    vs_fuzz_mode mode;
    velstatus_ctx *ctx;
    vs_failalloc fa;                          /* the ctx's allocator and jansson's (OOM modes) */
    long fail_at;                             /* the countdown, restored by vs_fuzz_arm() */
    int stage;                                /* stages run so far */
    velstatus_status ref[VS_FUZZ_MAX_STAGES]; /* the reference run's statuses */
    int nomem_seen;                           /* the countdown run met its failure */
    struct vs_fuzz_buf *memo;                 /* VS_FUZZ_MEMOS buffers a reference run leaves for its countdown runs */
    const char *pipeline;
} vs_fuzz_env;

typedef void (*vs_fuzz_pipeline)(vs_fuzz_env *env, vs_fuzz_in *in);

/* Prints the message (and the pipeline and stage) and aborts: a finding. */
void vs_fuzz_fail(const vs_fuzz_env *env, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;
#define VS_FUZZ_CHECK(env, cond)                                                       \
    do {                                                                               \
        if (!(cond))                                                                   \
            vs_fuzz_fail((env), "%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
    } while (0)

/* Runs `p` once on the input with a malloc context (the plain targets). */
int vs_fuzz_run_plain(vs_fuzz_pipeline p, const char *name, const uint8_t *data, size_t size);
/* Runs `p` once counting allocations, then again failing some of them in
 * turn (the OOM target); see doc/fuzzing.md. */
int vs_fuzz_run_oom(vs_fuzz_pipeline p, const char *name, const uint8_t *data, size_t size);

/* Accounts for one library call of a pipeline. Returns 1 when st is OK and
 * the pipeline goes on, 0 when it must stop (clean up and return). Plain
 * mode: NOMEM and INTERNAL are findings. Countdown mode: the first call after
 * the failed allocation must return NOMEM (env->nomem_seen is then set);
 * calls before it must return what they returned in the reference run. */
int vs_fuzz_stage(vs_fuzz_env *env, velstatus_status st, const char *what);
/* Like vs_fuzz_stage() for a call that must succeed on this input (encoding
 * a list, decoding what the library wrote): any other status than OK is a
 * finding, except NOMEM after the countdown's failure. */
int vs_fuzz_must(vs_fuzz_env *env, velstatus_status st, const velstatus_error *err, const char *what);
/* Whether the extra checks that allocate (validating output with jansson,
 * snapshots) run: always in plain mode; in the OOM modes they run disarmed. */
int vs_fuzz_checks(const vs_fuzz_env *env);
/* Suspends (0) or resumes (1) the countdown, for snapshots in the OOM modes. */
void vs_fuzz_arm(vs_fuzz_env *env, int on);
/* After a failed call: it must not hand an object to the caller (*out is
 * the sentinel it was set to, or NULL). */
void vs_fuzz_out_untouched(const vs_fuzz_env *env, const void *out, const void *sentinel, const char *what);
/* The sentinel pointer value for outputs. */
extern char vs_fuzz_sentinel[1];

/* ---- helpers the pipelines share ------------------------------------------ */
/* A growable byte buffer on the C library's malloc (never the ctx's). */
typedef struct vs_fuzz_buf {
    char *p;
    size_t len, cap;
} vs_fuzz_buf;
void vs_fuzz_buf_add(vs_fuzz_buf *b, const void *p, size_t n);
void vs_fuzz_buf_free(vs_fuzz_buf *b);
/* Whether two byte strings are equal (either pointer may be NULL with length 0). */
int vs_fuzz_same(const void *a, size_t alen, const void *b, size_t blen);

/* Decodes text as a list of `kind` (pipe_oplist.c) and reads every record
 * back through the getters; *out is NULL when the text is rejected. */
velstatus_status vs_fuzz_decode_list(vs_fuzz_env *env, velstatus_kind kind, const char *p, size_t len,
                                     velstatus_oplist **out);
/* Everything the getters say about record i, as bytes (for comparing records). */
void vs_fuzz_op_print(vs_fuzz_buf *b, const velstatus_oplist *list, size_t i);
/* The list's JSON, taken with the countdown suspended (a snapshot). */
void vs_fuzz_list_json(vs_fuzz_env *env, vs_fuzz_buf *b, const velstatus_oplist *list);
/* Checks that `p` is one JSON value (jansson) when checks run. */
void vs_fuzz_valid_json(vs_fuzz_env *env, const char *p, size_t len, const char *what);
/* Encodes the list, decodes the text, and encodes again: both encodes and the
 * decode must succeed, and the second text must equal the first unless
 * `settle` is set, in which case one more round must reproduce the second (a
 * list built by setters or plugin reports may hold invalid UTF-8, written as
 * \ufffd and read back as U+FFFD, so only its first re-encode may differ). */
void vs_fuzz_roundtrip(vs_fuzz_env *env, const velstatus_oplist *list, int settle);

/* ---- the pipelines (one plain target each; all of them in the OOM target) - */
void vs_pipe_bsl(vs_fuzz_env *env, vs_fuzz_in *in);
/* The BSL tracker fed the decoded set (pipe_tracker.c), after vs_pipe_bsl's classification. */
void vs_track_bsls(vs_fuzz_env *env, vs_fuzz_in *in, const velstatus_bsl_set *set,
                   const velstatus_server_status_options *o);
void vs_pipe_oplist(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_reports(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_time(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_reconcile(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_progress(vs_fuzz_env *env, vs_fuzz_in *in);
/* The scanner target: lib/common/json_scan.h, the one internal interface fuzzed. */
void vs_pipe_scan(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_watch(vs_fuzz_env *env, vs_fuzz_in *in);
/* The streaming decoder fed in chunks against the one-shot decode. */
void vs_pipe_decoder(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_snapshot(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_describe_in(vs_fuzz_env *env, vs_fuzz_in *in);
void vs_pipe_table_in(vs_fuzz_env *env, vs_fuzz_in *in);
/* The tool's YAML-to-JSON converter (tools/yaml_json.c), read whole against in pieces. */
void vs_pipe_yaml(vs_fuzz_env *env, vs_fuzz_in *in);
/* DataUploads/DataDownloads: the decoder, the CSI PVC plugin's answers, the client under a reconcile. */
void vs_pipe_datamover(vs_fuzz_env *env, vs_fuzz_in *in);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif

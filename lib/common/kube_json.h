/* SPDX-License-Identifier: Apache-2.0 */
/* The decoding helpers of the Kubernetes object decoders (internal, not
 * installed): BackupStorageLocations (bsl_json.c), Backups and Restores
 * (backup_object.c), watch events (watch_event.c), DataUploads and
 * DataDownloads (datamover/decoder.c), VolumeSnapshots and their contents
 * (snapshot/snapshot_list.c). Each walks text the
 * one scanner (json_scan.h) accepted, with the semantics of apimachinery's
 * decoder (sigs.k8s.io/json, doc/json-decoding.md): keys are unescaped and
 * matched case-sensitively, a repeated key is assigned in order (the last
 * non-null value wins) and a null leaves a field as it was. Every error is
 * E_SCHEMA "<path>: <message>" with the position of the offending value. */
#ifndef VELSTATUS_KUBE_JSON_H
#define VELSTATUS_KUBE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "common/json_scan.h"
#include "velstatus/watch.h"

/* One step of a path (for messages): a key, or an array index (key NULL). */
typedef struct velstatus__kseg {
    const char *key;
    size_t idx;
} velstatus__kseg;

enum { VS_KMAXSEG = 6 };

typedef struct velstatus__kpath {
    velstatus__kseg s[VS_KMAXSEG];
    int n;
} velstatus__kpath;

/* An accepted value's span in the text; vs == SIZE_MAX: absent. */
typedef struct velstatus__kspan {
    size_t vs, ve;
} velstatus__kspan;

extern const velstatus__kspan velstatus__kabsent;

/* The decoded-text buffers: a value is decoded into the buffer its caller
 * names and stays valid until that buffer's next use. */
enum {
    VS_KBUF_NAME,
    VS_KBUF_TOKEN,
    VS_KBUF_MESSAGE,
    VS_KBUF_TIME,
    VS_KBUF_NS,
    VS_KBUF_PROVIDER,
    VS_KBUF_BUCKET,
    VS_KBUF_PREFIX,
    VS_KNBUF
};

typedef struct velstatus__kdec {
    const char *text;
    size_t len;
    velstatus__kpath path;
    velstatus_error *err;
    velstatus__buf kbuf, vbuf[VS_KNBUF]; /* decoded keys; string values with escapes */
    velstatus__json_tape *tape;          /* where the text's values end (its scan's), or NULL */
} velstatus__kdec;

void velstatus__kdec_init(velstatus__kdec *d, velstatus_ctx *ctx, const char *json, size_t len, velstatus_error *err);
void velstatus__kdec_release(velstatus__kdec *d);

/* The whole input must be one JSON value (the scanner's rules), with
 * nothing but whitespace around it: its span in *root. */
velstatus_status velstatus__kdec_scan(const char *json, size_t len, velstatus__kspan *root, velstatus_error *err);
/* The same, recording where the text's keys and values end into *tape
 * (velstatus__json_scan_tape, its offsets from json[0]): a decoder whose
 * d->tape points to it walks the text without looking for them again. */
velstatus_status velstatus__kdec_scan_tape(const char *json, size_t len, velstatus__kspan *root,
                                           velstatus__json_tape *tape, velstatus_error *err);
/* The argument checks of every public decoder taking (out, ctx, json, len):
 * resolves *len, refuses a NULL out or ctx or a NULL json with a length
 * (E_INVALID naming them, nothing written) and reads a NULL json as "". */
velstatus_status velstatus__kdec_args(const void *out, const velstatus_ctx *ctx, const char **json, size_t *len,
                                      velstatus_error *err);

/* E_SCHEMA: "<path>: <message>", at byte off. */
velstatus_status velstatus__kdec_error(velstatus__kdec *d, size_t off, const char *fmt, ...) VS__PRINTF(3, 4);
void velstatus__kdec_push_key(velstatus__kdec *d, const char *key);
void velstatus__kdec_push_idx(velstatus__kdec *d, size_t idx);
/* "an object", "a string", ... for the value starting with byte c. */
const char *velstatus__kdec_type_name(char c);

/* The index of the member key [ks, ke) in names[0..n) (n entries, or up to
 * a NULL one): exact bytes after unescaping; -1 when none. */
velstatus_status velstatus__kdec_key(velstatus__kdec *d, size_t ks, size_t ke, const char *const *names, size_t n,
                                     int *k);
/* A string field v (absent: *s NULL, *len 0), decoded into buffer `buf`;
 * parent NULL for a top-level key. E_SCHEMA when v is not a string. */
velstatus_status velstatus__kdec_string(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                        int buf, const char **s, size_t *len);
/* An RFC 3339 time field (absent: *has 0). */
velstatus_status velstatus__kdec_time(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                      int *has, int64_t *ns);
/* An integer field (absent: *has 0, *out 0): a JSON integer, as Go decodes
 * one into an int64 (a fraction or an exponent is an error). */
velstatus_status velstatus__kdec_int(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                     int *has, int64_t *out);
/* A boolean field (absent: *has 0, *out 0): JSON true or false. */
velstatus_status velstatus__kdec_bool(velstatus__kdec *d, velstatus__kspan v, const char *parent, const char *key,
                                      int *has, int *out);
/* Whether s[0..len) is the text lit (s NULL: no). */
int velstatus__kdec_is(const char *s, size_t len, const char *lit);

/* The array of items the root holds: a List's items (its kind one of
 * list_kinds[0..n)), or the root itself when it is an array; absent for a
 * single object. `single` names that object in the message of a root that
 * is neither ("a BackupStorageLocation"). */
velstatus_status velstatus__kdec_items(velstatus__kdec *d, velstatus__kspan root, const char *const *list_kinds,
                                       size_t n, const char *single, velstatus__kspan *items);
/* Calls one(d, arg, item) for each item of root as velstatus__kdec_items()
 * finds them (the root itself for a single object), the path naming
 * items[i]; stops at the first failure. */
velstatus_status velstatus__kdec_each_item(velstatus__kdec *d, velstatus__kspan root, const char *const *list_kinds,
                                           size_t n, const char *single,
                                           velstatus_status (*one)(velstatus__kdec *, void *, velstatus__kspan),
                                           void *arg);

/* The watch event `root` as velstatus_watch_event_from_json() reads it
 * (watch_event.c): its type (OBJECT for a bare object, ERROR for a bare
 * Status) and the span of its object (root itself for a bare one). E_SCHEMA
 * for a root that is not an object, an unknown type, an event without an
 * object object. */
velstatus_status velstatus__kdec_watch_event(velstatus__kdec *d, velstatus__kspan root, velstatus_watch_type *type,
                                             velstatus__kspan *object);
/* velstatus_watch_event_from_json(), recording into *tape (or NULL) where
 * the event's keys and values end (velstatus__kdec_scan_tape): the
 * decoder of its object walks it with that tape. */
velstatus_status velstatus__watch_event_decode(velstatus_watch_event **out, velstatus_ctx *ctx, const char *json,
                                               size_t len, velstatus__json_tape *tape, velstatus_error *err);

/* How an object of a document or stream changes a decoder's list. */
enum {
    VS_KPUT_APPEND, /* an object of a one-value document: appended, repeats kept */
    VS_KPUT_UPSERT, /* a later state in a stream: replaces the same kind/namespace/name in place */
    VS_KPUT_DELETE  /* a DELETED event: removes it */
};

/* A decoder of Kubernetes objects, as velstatus__kdec_document_or_stream()
 * and velstatus__kdec_list() drive it. put() decodes the object obj (the
 * path names it) and applies `how` (VS_KPUT_*) to the list `list`; it counts
 * an object of another kind skipped. */
typedef struct velstatus__klist {
    size_t size, pool_at, skipped_at; /* the list's size, the offsets of its pool and skipped counter */
    int whole;                        /* 1: the text is one value (velstatus__kdec_scan()), else a document or stream */
    const char *const *list_kinds;
    size_t nkinds;
    const char *single; /* "a DataUpload or DataDownload", for messages */
    velstatus_status (*put)(velstatus__kdec *d, void *list, velstatus__kspan obj, int how);
    /* whole: the items of root; NULL for a document or stream */
    velstatus_status (*decode)(velstatus__kdec *d, void *list, velstatus__kspan root);
    void (*free_list)(void *list);
} velstatus__klist;

/* The text of d as kubectl writes it (doc/json-decoding.md): one value (an
 * object, a List of one of t->list_kinds or an array: every object is
 * appended) or a watch stream of values (`kubectl get -w -o json`: bare
 * objects, Lists or arrays, their objects upserted) or of
 * `--output-watch-events` events (ADDED and MODIFIED upsert, DELETED removes,
 * BOOKMARK changes nothing, ERROR counts *skipped). An empty text is
 * nothing (velstatus__kdec_list() refuses it first). */
velstatus_status velstatus__kdec_document_or_stream(velstatus__kdec *d, const velstatus__klist *t, void *list,
                                                    size_t *skipped);

/* The body of a public list decoder, its arguments checked
 * (velstatus__kdec_args()): refuses an empty text (or, t->whole, anything
 * but one value) before allocating, then allocates the list, initialises
 * its pool and decodes the text into it with t->decode (whole) or
 * velstatus__kdec_document_or_stream(), freeing it on failure. *list: the
 * new list, NULL on failure. */
velstatus_status velstatus__kdec_list(const velstatus__klist *t, velstatus_ctx *ctx, const char *json, size_t len,
                                      velstatus_error *err, void **list);

#endif /* VELSTATUS_KUBE_JSON_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* YAML to JSON, as `kubectl apply -f` reads YAML (sigs.k8s.io/yaml's
 * YAMLToJSON over go-yaml v2): the same strings, numbers, booleans and
 * nulls. doc/yaml.md gives every rule. Driven by libyaml's event parser, so
 * it streams: the converter pulls input through a read callback as it needs
 * it and hands JSON out as it is made; it holds one event, the open
 * mappings' keys (duplicates are an error) and, only while an anchored node
 * is open, that node's JSON. No I/O of its own: the CLI's reader
 * (tools/input.c) and the fuzz target drive it. */
#ifndef VS_YAML_JSON_H
#define VS_YAML_JSON_H

#include <stddef.h>
#include <stdint.h>

/* Reads at most n bytes of YAML: the count, 0 at the end, -1 on an error
 * the callback has already reported. */
typedef long (*vs_yaml_read_fn)(void *ud, char *buf, size_t n);

typedef enum vs_yaml_mode {
    /* One JSON text: a single document as it is; several documents as one
     * array of them, where a document that is a sequence gives its elements
     * (a stream of lists is one list). Empty and null documents are skipped. */
    VS_YAML_WHOLE = 0,
    /* One JSON text per document, each on its own lines (a watch stream). */
    VS_YAML_STREAM = 1
} vs_yaml_mode;

/* The bounds (doc/yaml.md): the alias expansions of one document may add at
 * most VS_YAML_ALIAS_FLOOR bytes plus VS_YAML_ALIAS_RATIO times the JSON the
 * document's own nodes make; nesting stops at VS_YAML_MAX_DEPTH levels. */
#define VS_YAML_ALIAS_FLOOR (UINT64_C(1) << 20)
#define VS_YAML_ALIAS_RATIO 4
#define VS_YAML_MAX_DEPTH 2048

typedef struct vs_yaml vs_yaml;

/* A converter reading through fn(ud, ...). max_doc bounds the YAML bytes
 * of one document. NULL when memory ran out. */
vs_yaml *vs_yaml_new(vs_yaml_read_fn fn, void *ud, vs_yaml_mode mode, uint64_t max_doc);
/* At most n bytes of JSON: the count, 0 at the end, -1 on an error
 * (vs_yaml_error). JSON tokens keep the line of their YAML node (layout
 * newlines are inserted) and, where the JSON is not longer, its column. */
long vs_yaml_read(vs_yaml *y, char *out, size_t n);
/* After -1: the message (static or owned by y), and its YAML line and
 * column (1-based; 0 when none applies). *from_source is 1 when the read
 * callback failed (it reported already). */
const char *vs_yaml_error(const vs_yaml *y, unsigned long *line, unsigned long *column, int *from_source);
void vs_yaml_free(vs_yaml *y);

/* ---- scalars (tools/yaml_scalar.c) ---- */
typedef enum vs_yaml_type {
    VS_YT_STRING,
    VS_YT_NULL,
    VS_YT_BOOL,
    VS_YT_INT,   /* fits int64 */
    VS_YT_UINT,  /* above INT64_MAX, fits uint64 */
    VS_YT_FLOAT, /* a double */
    VS_YT_BINARY /* a !!binary string: base64-decoded into bytes */
} vs_yaml_type;

typedef struct vs_yaml_value {
    vs_yaml_type type;
    int b;
    int64_t i;
    uint64_t u;
    double f;
} vs_yaml_value;

/* Resolves a scalar as go-yaml v2 does: tag is NULL (untagged) or libyaml's
 * full tag; plain is whether it was written plain. 0, or -1 with a static
 * message in *why (a tag its text does not fit, bad base64). */
int vs_yaml_resolve(const char *s, size_t n, const char *tag, int plain, vs_yaml_value *v, const char **why);
/* A double as Go's encoding/json writes it (shortest, %f between 1e-6 and
 * 1e21); 0 for NaN and infinities, which JSON has no form for. cap >= 32. */
int vs_yaml_json_float(char *out, size_t cap, double f);
/* A float map key as sigs.k8s.io/yaml spells it: FormatFloat(k, 'g', -1, 32),
 * with .inf, -.inf and .nan. cap >= 32. */
void vs_yaml_key_float(char *out, size_t cap, double f);
/* Decodes base64 (Go's StdEncoding, CR and LF ignored) of s[0..n) into out
 * (at least n bytes); the length, or -1 when it is not base64. */
long vs_yaml_base64(unsigned char *out, const char *s, size_t n);

#endif

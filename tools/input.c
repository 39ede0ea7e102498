/* SPDX-License-Identifier: Apache-2.0 */
/* The tool's input streams: a file or stdin read with read(2), so a pipe's
 * data is handed on as it arrives (server-status --watch), with gzip
 * decompressed transparently when the first two bytes are its magic 1f 8b,
 * and YAML converted to JSON when the first bytes are not JSON's
 * (doc/cli.md, "Input"; doc/yaml.md). zlib and libyaml are the tool's
 * dependencies, never the library's. */
#include "cli.h"
#include "text_in.h"
#include "yaml_json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct cli_reader {
    const char *cmd, *name;
    int fd, is_stdin;
    int gz, in_member, raw_eof;
    z_stream z;
    unsigned char in[65536];
    size_t pending;     /* plain mode: bytes of in[] read ahead (the magic check) not yet handed out */
    uint64_t in_off;    /* compressed bytes consumed by inflate */
    uint64_t out_total; /* bytes handed out */
    uint64_t limit;     /* --max-input */
    int stream;         /* cli_reader_unbounded: YAML documents as one JSON text each */
    int decided;        /* JSON or YAML: known once the first bytes are in */
    vs_yaml *yaml;      /* the converter, when the input is YAML */
    char *peek;         /* the bytes read to decide, handed on first */
    size_t peek_len, peek_pos;
};

void cli_reader_unbounded(cli_reader *r)
{
    r->limit = UINT64_MAX;
    r->stream = 1;
}

const char *cli_reader_name(const cli_reader *r)
{
    return r->name;
}

/* read(2) that retries EINTR; -1 after printing the OS reason. */
static long raw_read(cli_reader *r, unsigned char *buf, size_t n)
{
    for (;;) {
        ssize_t got = read(r->fd, buf, n);
        if (got >= 0)
            return (long)got;
        if (errno != EINTR) {
            cli_fail(r->cmd, "cannot read %s: %s", r->name, strerror(errno));
            return -1;
        }
    }
}

cli_reader *cli_reader_open(const char *cmd, const char *path)
{
    cli_reader *r = calloc(1, sizeof(*r));
    long got = 0;
    if (!r) {
        cli_fail(cmd, "out of memory");
        return NULL;
    }
    r->cmd = cmd;
    r->limit = cli_max_input;
    r->is_stdin = !path || strcmp(path, "-") == 0;
    r->name = r->is_stdin ? "stdin" : path;
    r->fd = r->is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0) {
        cli_fail(cmd, "cannot open %s: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    /* The magic: read until two bytes are in or the input ends. */
    while (r->pending < 2 && (got = raw_read(r, r->in + r->pending, sizeof(r->in) - r->pending)) > 0)
        r->pending += (size_t)got;
    if (got < 0 && r->pending < 2) {
        cli_reader_close(r);
        return NULL;
    }
    if (r->pending >= 2 && r->in[0] == 0x1f && r->in[1] == 0x8b) {
        r->gz = 1;
        if (inflateInit2(&r->z, 15 + 16) != Z_OK) { /* 15 + 16: a gzip wrapper only */
            cli_fail(cmd, "out of memory");
            r->gz = 0;
            cli_reader_close(r);
            return NULL;
        }
        r->z.next_in = r->in;
        r->z.avail_in = (uInt)r->pending;
        r->pending = 0;
        r->in_member = 1;
    }
    return r;
}

static long over_limit(cli_reader *r)
{
    cli_fail(r->cmd, "%s: the input is larger than --max-input (%llu bytes%s)", r->name,
             (unsigned long long)cli_max_input, r->gz ? " after decompression" : "");
    return -1;
}

/* One inflate step into buf; 0 when more input is needed or a member ended. */
static long gz_step(cli_reader *r, char *buf, size_t n)
{
    uInt before = r->z.avail_in;
    int zr;
    if (!r->in_member) { /* another gzip member follows (gzip -c a b > ab is one stream) */
        inflateReset(&r->z);
        r->in_member = 1;
    }
    r->z.next_out = (unsigned char *)buf;
    r->z.avail_out = (uInt)(n > 65536 ? 65536 : n);
    zr = inflate(&r->z, Z_NO_FLUSH);
    r->in_off += before - r->z.avail_in;
    if (zr == Z_STREAM_END)
        r->in_member = 0;
    else if (zr == Z_MEM_ERROR)
        return cli_fail(r->cmd, "out of memory decompressing %s", r->name), -1;
    else if (zr != Z_OK && !(zr == Z_BUF_ERROR && r->z.avail_in == 0))
        return cli_fail(r->cmd, "%s: corrupt gzip stream at byte %llu: %s", r->name, (unsigned long long)r->in_off,
                        r->z.msg ? r->z.msg : "invalid data"),
               -1;
    return (long)((n > 65536 ? 65536 : n) - r->z.avail_out);
}

static long gz_read(cli_reader *r, char *buf, size_t n)
{
    for (;;) {
        long got;
        if (r->z.avail_in == 0 && !r->raw_eof) {
            got = raw_read(r, r->in, sizeof(r->in));
            if (got < 0)
                return -1;
            if (got == 0)
                r->raw_eof = 1;
            r->z.next_in = r->in;
            r->z.avail_in = (uInt)got;
        }
        if (r->z.avail_in == 0 && r->raw_eof) {
            if (r->in_member)
                return cli_fail(r->cmd, "%s: truncated gzip stream: the input ends at byte %llu inside a member",
                                r->name, (unsigned long long)r->in_off),
                       -1;
            return 0;
        }
        got = gz_step(r, buf, n);
        if (got != 0)
            return got;
    }
}

/* The decompressed bytes, before the YAML check. */
static long src_read(cli_reader *r, char *buf, size_t n)
{
    long got;
    if (r->gz) {
        got = gz_read(r, buf, n);
    } else if (r->pending > 0) {
        got = (long)(r->pending < n ? r->pending : n);
        memcpy(buf, r->in, (size_t)got);
        memmove(r->in, r->in + got, r->pending - (size_t)got);
        r->pending -= (size_t)got;
    } else {
        got = raw_read(r, (unsigned char *)buf, n > 65536 ? 65536 : n);
    }
    if (got > 0 && (r->out_total += (uint64_t)got) > r->limit)
        return over_limit(r);
    return got;
}

/* Whether text[0..n) is JSON (0), YAML (1), or not known yet (-1): JSON
 * starts with `{"`, `{}`, `[` and a JSON value, `"`, or is a literal
 * (`null`, `true`, `false`) followed by a space or the end; everything else
 * (`key:`, `---`, `- `, a comment, a BOM, flow style `{key: v}`) is YAML,
 * which a JSON text never is. An empty (or blank) input, and one starting
 * with a control character, stays JSON, whose decoders say what it is. */
static int detect(const char *p, size_t n, int eof)
{
    static const char *const lit[] = {"true", "false", "null"};
    size_t i = 0, j;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    if (i == n)
        return eof || n > 65536 ? 0 : -1;
    if (p[i] == '"' || (unsigned char)p[i] < 0x20 || p[i] == 0x7f)
        return 0; /* a control character starts no YAML: binary garbage gets the JSON decoders' message */
    for (size_t k = 0; k < 3; k++) { /* a JSON literal alone (`null`: no operations) */
        size_t len = strlen(lit[k]);
        if (n - i > len && memcmp(p + i, lit[k], len) == 0 && strchr(" \t\r\n", p[i + len]))
            return 0;
        if (n - i <= len && memcmp(p + i, lit[k], n - i) == 0 && !eof)
            return -1; /* perhaps the literal: more bytes (or the end) tell */
        if (n - i == len && memcmp(p + i, lit[k], len) == 0)
            return 0;
    }
    if (p[i] != '{' && p[i] != '[')
        return 1;
    for (j = i + 1; j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\n' || p[j] == '\r'); j++)
        ;
    if (j == n)
        return eof || n > 65536 ? 0 : -1;
    if (p[i] == '{')
        return p[j] == '"' || p[j] == '}' ? 0 : 1;
    if (strchr("{[]\"-0123456789", p[j]))
        return 0;
    for (size_t k = 0; k < 3; k++) {
        size_t len = strlen(lit[k]), have = n - j < len ? n - j : len;
        if (memcmp(p + j, lit[k], have) == 0)
            return have == len ? 0 : eof ? 1 : -1;
    }
    return 1;
}

/* The converter's source: the peeked bytes, then the stream. */
static long yaml_src(void *ud, char *buf, size_t n)
{
    cli_reader *r = ud;
    if (r->peek_pos < r->peek_len) {
        size_t k = r->peek_len - r->peek_pos < n ? r->peek_len - r->peek_pos : n;
        memcpy(buf, r->peek + r->peek_pos, k);
        r->peek_pos += k;
        return (long)k;
    }
    return src_read(r, buf, n);
}

/* Reads the first bytes and decides JSON or YAML. 0, or -1 after printing. */
static int decide(cli_reader *r)
{
    size_t cap = 0;
    int d = -1, eof = 0;
    while (d < 0) {
        long got;
        if (cap - r->peek_len < 4096) {
            char *p = realloc(r->peek, cap = cap ? cap * 2 : 8192);
            if (!p)
                return cli_fail(r->cmd, "out of memory reading %s", r->name), -1;
            r->peek = p;
        }
        got = src_read(r, r->peek + r->peek_len, cap - r->peek_len);
        if (got < 0)
            return -1;
        eof = got == 0;
        r->peek_len += (size_t)got;
        d = detect(r->peek, r->peek_len, eof);
    }
    r->decided = 1;
    if (d == 1 && cli_form_raw(r->peek, r->peek_len))
        d = 0; /* describe text or a table: its reader takes the raw text (tools/text_in.h) */
    if (d == 1 && !(r->yaml = vs_yaml_new(yaml_src, r, r->stream ? VS_YAML_STREAM : VS_YAML_WHOLE,
                                          r->stream ? cli_max_input : UINT64_MAX)))
        return cli_fail(r->cmd, "out of memory reading %s", r->name), -1;
    return 0;
}

static long yaml_read(cli_reader *r, char *buf, size_t n)
{
    long got = vs_yaml_read(r->yaml, buf, n);
    unsigned long line, col;
    int from_source;
    const char *msg;
    if (got >= 0)
        return got;
    msg = vs_yaml_error(r->yaml, &line, &col, &from_source);
    if (from_source)
        return -1;
    if (line)
        cli_fail(r->cmd, "%s: YAML: %s (line %lu, column %lu)", r->name, msg, line, col);
    else
        cli_fail(r->cmd, "%s: YAML: %s", r->name, msg);
    return -1;
}

long cli_reader_read(cli_reader *r, char *buf, size_t n)
{
    if (n == 0)
        return 0;
    if (!r->decided && decide(r) != 0)
        return -1;
    if (r->yaml)
        return yaml_read(r, buf, n);
    return yaml_src(r, buf, n);
}

void cli_reader_close(cli_reader *r)
{
    if (!r)
        return;
    vs_yaml_free(r->yaml);
    free(r->peek);
    if (r->gz)
        inflateEnd(&r->z);
    if (!r->is_stdin && r->fd >= 0)
        close(r->fd);
    free(r);
}

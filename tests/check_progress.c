/* SPDX-License-Identifier: Apache-2.0 */
/* Progress aggregation (progress.h), its number formatting, and the private
 * Go-exact tabwriter. doc/velero-behaviour.md §3.4 / §6.23: Velero never aggregates, so
 * the aggregation rules tested here are the library's own (progress.h,
 * doc/progress.md); the tabwriter is checked against Go's text/tabwriter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "harness.h"
#include "progress/private.h"
#include "common/tabwriter.h"

#define SEC INT64_C(1000000000)
#define MiB INT64_C(1048576)
#define GiB INT64_C(1073741824)

/* ------------------------------------------------------------------ */
/* tabwriter                                                           */
/* ------------------------------------------------------------------ */

static char *tw(velstatus_ctx *ctx, const char *in, size_t len, const velstatus__tw_opts *o, size_t *out_len)
{
    velstatus__buf b;
    char *p = NULL;
    velstatus__buf_init(&b, ctx);
    ck_assert_int_eq(velstatus__tw_format(&b, in, len, o, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus__buf_finish(&b, &p, out_len, NULL), VELSTATUS_OK);
    return p;
}

static void tw_expect(const char *in, const char *want)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__tw_opts o;
    size_t n;
    char *got;
    velstatus__tw_opts_velero(&o);
    got = tw(ctx, in, strlen(in), &o, &n);
    ck_assert_msg(n == strlen(want) && memcmp(got, want, n) == 0, "input [%s]\n got [%s]\nwant [%s]", in, got, want);
    velstatus_free(ctx, got);
    velstatus_ctx_free(ctx);
}

static size_t unhex(const char *h, char *out)
{
    size_t i, n;
    if (strcmp(h, "-") == 0)
        return 0;
    n = strlen(h) / 2;
    for (i = 0; i < n; i++) {
        unsigned v;
        ck_assert_int_eq(sscanf(h + 2 * i, "%2x", &v), 1);
        out[i] = (char)v;
    }
    return n;
}

/* 600 random inputs (tabs, vtabs, newlines, formfeeds, escapes, multi-byte
 * and invalid UTF-8) run through Go 1.19's text/tabwriter by
 * tests/data/progress/tabwriter-vectors.go.txt under 8 configurations. */
START_TEST(tw_matches_go_vectors)
{
    size_t len, cases = 0;
    char *data = vs_test_read_data("progress/tabwriter-vectors.txt", &len);
    char *save = NULL, *ln;
    velstatus_ctx *ctx = vs_test_ctx();
    for (ln = strtok_r(data, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        unsigned mw, twd, pad, pc;
        char hin[20000], hout[20000], in[10000], want[10000];
        size_t il, wl, gl;
        velstatus__tw_opts o;
        char *got;
        ck_assert_int_eq(sscanf(ln, "%u %u %u %x %19999s %19999s", &mw, &twd, &pad, &pc, hin, hout), 6);
        il = unhex(hin, in);
        wl = unhex(hout, want);
        o.minwidth = mw;
        o.tabwidth = twd;
        o.padding = pad;
        o.padchar = (char)pc;
        o.max_out = 0;
        got = tw(ctx, in, il, &o, &gl);
        ck_assert_msg(gl == wl && memcmp(got, want, wl) == 0, "vector %zu (%s) differs", cases + 1, hin);
        velstatus_free(ctx, got);
        cases++;
    }
    ck_assert_uint_eq(cases, 600);
    velstatus_ctx_free(ctx);
    free(data);
}
END_TEST

START_TEST(tw_velero_cases)
{
    /* Leading empty cells: each "\t" cell is padded to 0 + 2 columns. */
    tw_expect("\tOperation for a ns/n:\n\t\tPhase:\tNew\n\t\tOperation ID:\top-1\n",
              "  Operation for a ns/n:\n    Phase:         New\n    Operation ID:  op-1\n");
    /* A line with one cell ends every column block. */
    tw_expect("a:\tx\nlonger:\ty\nheader\nb:\tz\n", "a:       x\nlonger:  y\nheader\nb:  z\n");
    /* An empty line too. */
    tw_expect("a:\tx\n\nlonger:\ty\n", "a:  x\n\nlonger:  y\n");
    /* Blocks are per column: column 1 of lines 1-2 is a block, line 3 has no column 1. */
    tw_expect("\tab\tc\n\tabcd\td\n\tx\n\ty\tz\n", "  ab    c\n  abcd  d\n  x\n  y  z\n");
    /* The summary line alone. */
    tw_expect("Backup Item Operations:\t1 of 2 completed successfully, 0 failed\n",
              "Backup Item Operations:  1 of 2 completed successfully, 0 failed\n");
    /* Width counts runes, not bytes. */
    tw_expect("\xc3\xa9\xc3\xa9:\tx\nabcd:\ty\n", "\xc3\xa9\xc3\xa9:    x\nabcd:  y\n");
    /* Invalid bytes count one each. */
    tw_expect("\xe2\x82:\tx\nab:\ty\n", "\xe2\x82:  x\nab:  y\n");
    /* '\v' terminates a cell like '\t'; '\f' ends the line and all blocks. */
    tw_expect("a\vb\nccc\vd\n", "a    b\nccc  d\n");
    tw_expect("a\tb\fccc\td\n", "a  b\nccc  d\n");
    /* An escaped segment keeps its tab and newline, both 0xff bytes, and counts as its content. */
    tw_expect("\xff\t\n\xff\tx\nab\ty\n", "\xff\t\n\xff  x\nab  y\n");
    /* An unterminated escape at the end is closed there. */
    tw_expect("a\tb\n\xff\tc\n", "a  b\n\xff\tc\n");
    /* No trailing newline: the last line is written as is; a trailing tab cell is not padded. */
    tw_expect("a\tb\ncc\td", "a   b\ncc  d");
    tw_expect("a\tb\t", "a  b");
    tw_expect("", "");
}
END_TEST

START_TEST(tw_options)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__tw_opts o = {10, 8, 2, '.', 0};
    size_t n;
    char *got = tw(ctx, "a\tb\n", 4, &o, &n);
    ck_assert_str_eq(got, "a.........b\n"); /* minwidth 10 */
    velstatus_free(ctx, got);
    o.minwidth = 0;
    o.padchar = '\t';
    o.tabwidth = 4;
    o.padding = 1;
    got = tw(ctx, "abcd\tx\nab\ty\n", 12, &o, &n);
    ck_assert_str_eq(got, "abcd\tx\nab\t\ty\n"); /* width 5 -> 8: ceil(4/4) tabs after 4, ceil(6/4) after 2 */
    velstatus_free(ctx, got);
    o.tabwidth = 0;
    got = tw(ctx, "abcd\tx\n", 7, &o, &n);
    ck_assert_str_eq(got, "abcdx\n"); /* tabs of width 0 cannot pad */
    velstatus_free(ctx, got);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(tw_limits)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__tw_opts o;
    velstatus__buf b;
    velstatus_error err;
    size_t n = 200000, i, len;
    char *in = malloc(n + 2), *got;
    /* 200000 columns on one line: Go recurses once per column; we must not. */
    for (i = 0; i < n; i++)
        in[i] = '\t';
    in[n] = 'x';
    in[n + 1] = '\n';
    velstatus__tw_opts_velero(&o);
    got = tw(ctx, in, n + 2, &o, &len);
    ck_assert_uint_eq(len, 2 * n + 2);
    ck_assert_int_eq(got[0], ' ');
    ck_assert_int_eq(got[2 * n], 'x');
    velstatus_free(ctx, got);
    /* Output larger than the limit is refused, and nothing is appended. */
    o.max_out = 100;
    velstatus__buf_init(&b, ctx);
    ck_assert_int_eq(velstatus__tw_format(&b, in, n + 2, &o, &err), VELSTATUS_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err.message, "limit"));
    ck_assert_uint_eq(b.len, 0);
    velstatus__buf_reset(&b);
    free(in);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(tw_runecount)
{
    ck_assert_uint_eq(velstatus__tw_runecount("", 0), 0);
    ck_assert_uint_eq(velstatus__tw_runecount("abc", 3), 3);
    ck_assert_uint_eq(velstatus__tw_runecount("\xc3\xa9", 2), 1);
    ck_assert_uint_eq(velstatus__tw_runecount("\xe4\xb8\x96", 3), 1);
    ck_assert_uint_eq(velstatus__tw_runecount("\xf0\x9f\x98\x80", 4), 1);
    ck_assert_uint_eq(velstatus__tw_runecount("\xe2\x82", 2), 2);         /* truncated */
    ck_assert_uint_eq(velstatus__tw_runecount("\xed\xa0\x80", 3), 3);     /* surrogate */
    ck_assert_uint_eq(velstatus__tw_runecount("\xc0\xaf", 2), 2);         /* overlong */
    ck_assert_uint_eq(velstatus__tw_runecount("\xe0\x80\x80", 3), 3);     /* overlong */
    ck_assert_uint_eq(velstatus__tw_runecount("\xf4\x90\x80\x80", 4), 4); /* > U+10FFFF */
    ck_assert_uint_eq(velstatus__tw_runecount("\xff\xfe", 2), 2);
    ck_assert_uint_eq(velstatus__tw_runecount("\xf0\x9f\x98", 3), 3); /* short at the end */
}
END_TEST

START_TEST(tw_failalloc)
{
    const char *in = "\t\tPhase:\tNew\n\t\tOperation ID:\top-1\nx\n";
    velstatus_status st = VELSTATUS_OK;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus__buf b;
        velstatus__tw_opts o;
        char *p = NULL;
        velstatus__tw_opts_velero(&o);
        velstatus__buf_init(&b, ctx);
        st = velstatus__tw_format(&b, in, strlen(in), &o, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus__buf_finish(&b, &p, NULL, NULL);
        else
            velstatus__buf_reset(&b);
        if (st == VELSTATUS_OK) {
            ck_assert_str_eq(p, "    Phase:         New\n    Operation ID:  op-1\nx\n");
            velstatus_free(ctx, p);
        }
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

/* ------------------------------------------------------------------ */
/* number formatting                                                   */
/* ------------------------------------------------------------------ */

static char *fixed(velstatus_ctx *ctx, uint64_t v, unsigned d)
{
    velstatus__buf b;
    char *p;
    velstatus__buf_init(&b, ctx);
    velstatus__fmt_fixed(&b, v, d);
    ck_assert_int_eq(velstatus__buf_finish(&b, &p, NULL, NULL), VELSTATUS_OK);
    return p;
}

static char *iec(velstatus_ctx *ctx, int64_t v)
{
    velstatus__buf b;
    char *p;
    velstatus__buf_init(&b, ctx);
    velstatus__fmt_iec(&b, v);
    ck_assert_int_eq(velstatus__buf_finish(&b, &p, NULL, NULL), VELSTATUS_OK);
    return p;
}

#define CK_FIXED(v, d, want)         \
    do {                             \
        char *p_ = fixed(ctx, v, d); \
        ck_assert_str_eq(p_, want);  \
        velstatus_free(ctx, p_);     \
    } while (0)
#define CK_IEC(v, want)             \
    do {                            \
        char *p_ = iec(ctx, v);     \
        ck_assert_str_eq(p_, want); \
        velstatus_free(ctx, p_);    \
    } while (0)

START_TEST(numbers)
{
    velstatus_ctx *ctx = vs_test_ctx();
    char buf[VELSTATUS__I64_BUFSIZE];
    ck_assert_uint_eq(velstatus__fmt_i64(buf, 0), 1);
    ck_assert_str_eq(buf, "0");
    velstatus__fmt_i64(buf, -1);
    ck_assert_str_eq(buf, "-1");
    ck_assert_uint_eq(velstatus__fmt_i64(buf, INT64_MIN), 20);
    ck_assert_str_eq(buf, "-9223372036854775808");
    velstatus__fmt_i64(buf, INT64_MAX);
    ck_assert_str_eq(buf, "9223372036854775807");
    velstatus__fmt_u64(buf, UINT64_MAX);
    ck_assert_str_eq(buf, "18446744073709551615");

    CK_FIXED(37500, 3, "37.5");
    CK_FIXED(4000, 3, "4");
    CK_FIXED(5, 2, "0.05");
    CK_FIXED(0, 2, "0");
    CK_FIXED(10000, 2, "100");
    CK_FIXED(3333, 2, "33.33");
    CK_FIXED(1, 3, "0.001");
    CK_FIXED(UINT64_MAX, 3, "18446744073709551.615");

    CK_IEC(0, "0 B");
    CK_IEC(1023, "1023 B");
    CK_IEC(1024, "1.0 KiB");
    CK_IEC(1536, "1.5 KiB");
    CK_IEC(1048575, "1023.9 KiB"); /* rounded down, never up into the next unit */
    CK_IEC(MiB, "1.0 MiB");
    CK_IEC(3 * GiB / 2, "1.5 GiB");
    CK_IEC(4 * GiB, "4.0 GiB");
    CK_IEC(-2 * MiB, "-2.0 MiB");
    CK_IEC(-5, "-5 B");
    CK_IEC(INT64_C(1) << 50, "1.0 PiB");
    CK_IEC(INT64_MAX, "7.9 EiB");
    CK_IEC(INT64_MIN, "-8.0 EiB");
    velstatus_ctx_free(ctx);

    ck_assert_uint_eq(velstatus__pct_hundredths_u64(1, 3), 3333);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(2, 3), 6666);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(3, 8), 3750);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(0, 5), 0);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(5, 0), 0);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(7, 7), 10000);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(8, 7), 10000);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(UINT64_MAX - 1, UINT64_MAX), 9999);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(1, UINT64_MAX), 0);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(UINT64_MAX / 2, UINT64_MAX), 4999);
    ck_assert_uint_eq(velstatus__pct_hundredths_u64(UINT64_MAX / 10000 + 1, UINT64_MAX), 1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* aggregation on the internal input struct                            */
/* ------------------------------------------------------------------ */

static velstatus__prog_op P(velstatus_op_phase ph, int64_t c, int64_t t, const char *units)
{
    velstatus__prog_op op;
    memset(&op, 0, sizeof(op));
    op.phase = ph;
    op.n_completed = c;
    op.n_total = t;
    op.units = units;
    op.units_len = strlen(units);
    return op;
}

static velstatus__prog_op T(velstatus__prog_op op, int hs, int64_t s, int hu, int64_t u)
{
    op.has_started = hs;
    op.started = s;
    op.has_updated = hu;
    op.updated = u;
    return op;
}

static velstatus_progress *build(velstatus_ctx *ctx, velstatus__prog_op *ops, size_t n, int64_t now)
{
    velstatus_progress *r = NULL;
    ck_assert_int_eq(velstatus__progress_build(&r, ctx, ops, n, now, NULL), VELSTATUS_OK);
    return r;
}

static void ck_unit(const velstatus_progress *r, size_t i, const char *name)
{
    size_t len;
    const char *u = velstatus_progress_unit_name(r, i, &len);
    ck_assert_ptr_nonnull(u);
    ck_assert_uint_eq(len, strlen(name));
    ck_assert_str_eq(u, name);
}

START_TEST(agg_counts_and_units)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__prog_op ops[] = {
        P(VELSTATUS_OP_PHASE_COMPLETED, 10, 10, "items"),
        P(VELSTATUS_OP_PHASE_IN_PROGRESS, 5, 10, "Bytes"),
        P(VELSTATUS_OP_PHASE_NEW, 0, 20, "bytes"),
        P(VELSTATUS_OP_PHASE_FAILED, 3, 30, ""),
        P(VELSTATUS_OP_PHASE_IN_PROGRESS, 7, 0, "Bytes"), /* unquantified */
        P(VELSTATUS_OP_PHASE_COMPLETED, 100, 100, "Bytes"),
        P(VELSTATUS_OP_PHASE_UNKNOWN, 1, 2, "Bytes"), /* attempted only */
        P(VELSTATUS_OP_PHASE_NEW, 0, 0, "items"),     /* unquantified */
    };
    velstatus_progress *r = build(ctx, ops, 8, 0);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_ATTEMPTED), 8);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_NEW), 2);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_IN_PROGRESS), 2);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_COMPLETED), 2);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_FAILED), 1);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_UNKNOWN_PHASE), 1);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_UNQUANTIFIED), 2);
    ck_assert_uint_eq(velstatus_progress_count(r, (velstatus_progress_counter)7), 0);
    ck_assert_uint_eq(velstatus_progress_count(r, (velstatus_progress_counter)-1), 0);
    /* "" < "Bytes" < "bytes" < "items", byte-wise; units never mixed. */
    ck_assert_uint_eq(velstatus_progress_unit_count(r), 4);
    ck_unit(r, 0, "");
    ck_unit(r, 1, "Bytes");
    ck_unit(r, 2, "bytes");
    ck_unit(r, 3, "items");
    ck_assert_uint_eq(velstatus_progress_unit_operations(r, 1), 2);
    ck_assert_int_eq(velstatus_progress_unit_completed(r, 1), 105);
    ck_assert_int_eq(velstatus_progress_unit_total(r, 1), 110);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 1), 95.45);
    ck_assert_int_eq(velstatus_progress_unit_total(r, 2), 20);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 2), 0.0);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 0), 10.0);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 3), 100.0);
    ck_assert_uint_eq(velstatus_progress_flags(r), VELSTATUS_PROGRESS_F_UNKNOWN_PHASE |
                                                       VELSTATUS_PROGRESS_F_OVER_TOTAL | VELSTATUS_PROGRESS_F_UNTIMED);
    /* 7 of 0 is over its total (report level); Bytes InProgress has no start. */
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 1), VELSTATUS_PROGRESS_F_UNTIMED);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 0), 0);
    /* Out of range and NULL. */
    ck_assert_ptr_null(velstatus_progress_unit_name(r, 4, NULL));
    ck_assert_uint_eq(velstatus_progress_unit_operations(r, 4), 0);
    ck_assert_int_eq(velstatus_progress_unit_total(NULL, 0), 0);
    ck_assert_uint_eq(velstatus_progress_count(NULL, VELSTATUS_PROGRESS_ATTEMPTED), 0);
    ck_assert_uint_eq(velstatus_progress_flags(NULL), 0);
    ck_assert_uint_eq(velstatus_progress_unit_count(NULL), 0);
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 9, NULL), 0);
    ck_assert_int_eq(velstatus_progress_unit_eta(NULL, 0, NULL), 0);
    velstatus_progress_free(r);
    velstatus_progress_free(NULL);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_empty)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_progress *r = build(ctx, NULL, 0, 0);
    char *s;
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_ATTEMPTED), 0);
    ck_assert_uint_eq(velstatus_progress_unit_count(r), 0);
    ck_assert_uint_eq(velstatus_progress_flags(r), 0);
    ck_assert_int_eq(velstatus_progress_summary(&s, NULL, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, "no operations");
    velstatus_free(ctx, s);
    ck_assert_int_eq(velstatus_progress_to_json(&s, NULL, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, "{\"attempted\":0,\"new\":0,\"inProgress\":0,\"completed\":0,\"failed\":0,"
                        "\"unquantified\":0,\"units\":[],\"summary\":\"no operations\"}");
    velstatus_free(ctx, s);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_zero_totals)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__prog_op ops[] = {
        P(VELSTATUS_OP_PHASE_IN_PROGRESS, 0, 0, "Bytes"),
        P(VELSTATUS_OP_PHASE_COMPLETED, 0, 0, ""),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 0, 0, "items"), 1, 0, 1, SEC),
    };
    velstatus_progress *r = build(ctx, ops, 3, 0);
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_UNQUANTIFIED), 3);
    ck_assert_uint_eq(velstatus_progress_unit_count(r), 0); /* never divided by, in no group */
    ck_assert_uint_eq(velstatus_progress_flags(r), 0);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_overflow_sums)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__prog_op ops[] = {
        P(VELSTATUS_OP_PHASE_COMPLETED, INT64_MAX, INT64_MAX, "Bytes"),
        P(VELSTATUS_OP_PHASE_FAILED, 0, INT64_MAX, "Bytes"),
        P(VELSTATUS_OP_PHASE_COMPLETED, INT64_MAX, INT64_MAX, "b"),
        P(VELSTATUS_OP_PHASE_COMPLETED, INT64_MAX, INT64_MAX, "b"),
        P(VELSTATUS_OP_PHASE_COMPLETED, INT64_MIN, INT64_MIN, "b"),
        P(VELSTATUS_OP_PHASE_FAILED, INT64_MIN, INT64_MIN, "n"),
        P(VELSTATUS_OP_PHASE_FAILED, INT64_MIN, INT64_MIN, "n"),
    };
    velstatus_progress *r = build(ctx, ops, 7, 0);
    ck_assert_uint_eq(velstatus_progress_unit_count(r), 3);
    ck_unit(r, 0, "Bytes");
    /* 2 * INT64_MAX saturates; the percentage uses the exact sums: 50%. */
    ck_assert_int_eq(velstatus_progress_unit_completed(r, 0), INT64_MAX);
    ck_assert_int_eq(velstatus_progress_unit_total(r, 0), INT64_MAX);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 0), 50.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 0), VELSTATUS_PROGRESS_F_SATURATED);
    /* MAX + MAX + MIN = MAX - 1 exactly, whatever the order: no saturation. */
    ck_unit(r, 1, "b");
    ck_assert_int_eq(velstatus_progress_unit_completed(r, 1), INT64_MAX - 1);
    ck_assert_int_eq(velstatus_progress_unit_total(r, 1), INT64_MAX - 1);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 1), 100.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 1), VELSTATUS_PROGRESS_F_NEGATIVE);
    /* 2 * MIN saturates low; a negative total gives 0%. */
    ck_assert_int_eq(velstatus_progress_unit_total(r, 2), INT64_MIN);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 2), 0.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 2),
                      VELSTATUS_PROGRESS_F_SATURATED | VELSTATUS_PROGRESS_F_NEGATIVE);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_order_independent)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__prog_op a[] = {
        P(VELSTATUS_OP_PHASE_COMPLETED, INT64_MAX, 1, "u"),
        P(VELSTATUS_OP_PHASE_COMPLETED, 5, INT64_MAX, "u"),
        P(VELSTATUS_OP_PHASE_COMPLETED, INT64_MIN + 1, INT64_MIN + 1, "u"),
    };
    velstatus__prog_op b[] = {a[2], a[0], a[1]};
    velstatus_progress *ra = build(ctx, a, 3, 0), *rb = build(ctx, b, 3, 0);
    ck_assert_int_eq(velstatus_progress_unit_completed(ra, 0), 5);
    ck_assert_int_eq(velstatus_progress_unit_total(ra, 0), 1);
    ck_assert_int_eq(velstatus_progress_unit_completed(rb, 0), 5);
    ck_assert_int_eq(velstatus_progress_unit_total(rb, 0), 1);
    ck_assert_uint_eq(velstatus_progress_unit_flags(ra, 0), velstatus_progress_unit_flags(rb, 0));
    velstatus_progress_free(ra);
    velstatus_progress_free(rb);
    velstatus_ctx_free(ctx);
}
END_TEST

/* Many distinct units (the grouping table grows many times), given in
 * reverse order, come out sorted, each with its own records. */
START_TEST(agg_many_units)
{
    enum { N = 5000 };
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__prog_op *ops = calloc(2 * N, sizeof(*ops));
    char(*names)[8] = calloc(N, sizeof(*names));
    velstatus_progress *r;
    size_t i;
    for (i = 0; i < N; i++)
        snprintf(names[i], sizeof(names[i]), "u%05zu", N - 1 - i);
    for (i = 0; i < N; i++) {
        ops[2 * i] = P(VELSTATUS_OP_PHASE_COMPLETED, (int64_t)i, 10000, names[i]);
        ops[2 * i + 1] = P(VELSTATUS_OP_PHASE_NEW, 1, 10000, names[(i * 7919) % N]);
    }
    r = build(ctx, ops, 2 * N, 0);
    ck_assert_uint_eq(velstatus_progress_unit_count(r), N);
    for (i = 0; i < N; i++) {
        char want[8];
        size_t len;
        snprintf(want, sizeof(want), "u%05zu", i);
        ck_assert_str_eq(velstatus_progress_unit_name(r, i, &len), want);
        ck_assert_uint_eq(len, 6);
        ck_assert_uint_eq(velstatus_progress_unit_operations(r, i), 2);
        ck_assert_int_eq(velstatus_progress_unit_completed(r, i), (int64_t)(N - 1 - i) + 1);
        ck_assert_int_eq(velstatus_progress_unit_total(r, i), 20000);
    }
    velstatus_progress_free(r);
    free(names);
    free(ops);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_over_total_and_negative)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus__prog_op ops[] = {
        P(VELSTATUS_OP_PHASE_COMPLETED, 150, 100, "a"), P(VELSTATUS_OP_PHASE_COMPLETED, -5, 10, "b"),
        P(VELSTATUS_OP_PHASE_COMPLETED, 10, 100, "c"),  P(VELSTATUS_OP_PHASE_COMPLETED, 0, -100, "c"),
        P(VELSTATUS_OP_PHASE_COMPLETED, -3, 0, "d"),
    };
    velstatus_progress *r = build(ctx, ops, 5, 0);
    ck_assert_uint_eq(velstatus_progress_unit_count(r), 3);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 0), 100.0); /* clamped */
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 0), VELSTATUS_PROGRESS_F_OVER_TOTAL);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 1), 0.0); /* clamped */
    ck_assert_int_eq(velstatus_progress_unit_completed(r, 1), -5);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 1), VELSTATUS_PROGRESS_F_NEGATIVE);
    /* 10 of (100 - 100): a total <= 0 gives 0% and "over total". */
    ck_assert_int_eq(velstatus_progress_unit_total(r, 2), 0);
    ck_assert_double_eq(velstatus_progress_unit_percent(r, 2), 0.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 2),
                      VELSTATUS_PROGRESS_F_NEGATIVE | VELSTATUS_PROGRESS_F_OVER_TOTAL);
    /* -3 of 0 is unquantified but still flagged at report level. */
    ck_assert_uint_eq(velstatus_progress_count(r, VELSTATUS_PROGRESS_UNQUANTIFIED), 1);
    ck_assert_uint_eq(velstatus_progress_flags(r), VELSTATUS_PROGRESS_F_NEGATIVE | VELSTATUS_PROGRESS_F_OVER_TOTAL);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_rate_and_eta)
{
    velstatus_ctx *ctx = vs_test_ctx();
    int64_t t0 = INT64_C(1714557600) * SEC, eta;
    double rate;
    velstatus__prog_op ops[] = {
        /* 500 in 10 s (until updated): 50/s */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 500, 1000, "u"), 1, t0, 1, t0 + 10 * SEC),
        /* 100 in 100 s (until now): 1/s */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 100, 1000, "u"), 1, t0, 0, 0),
        /* New: remaining work, no rate */
        P(VELSTATUS_OP_PHASE_NEW, 0, 100, "u"),
        /* Completed and Failed: no remaining work */
        T(P(VELSTATUS_OP_PHASE_COMPLETED, 10, 10, "u"), 1, t0, 1, t0 + SEC),
        P(VELSTATUS_OP_PHASE_FAILED, 1, 500, "u"),
    };
    velstatus_progress *r = build(ctx, ops, 5, t0 + 100 * SEC);
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 0, &rate), 1);
    ck_assert_double_eq(rate, 51.0);
    /* remaining 500 + 900 + 100 = 1500; 1500 / 51 = 29.4 -> 30 */
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 0, &eta), 1);
    ck_assert_int_eq(eta, 30);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 0), 0);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_missing_timestamps)
{
    velstatus_ctx *ctx = vs_test_ctx();
    int64_t eta = 7;
    double rate = 7;
    velstatus__prog_op ops[] = {
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 5, 10, "nostart"), 0, 0, 1, 5 * SEC),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 5, 10, "backwards"), 1, 5 * SEC, 1, 4 * SEC),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 5, 10, "future"), 1, 50 * SEC, 0, 0),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 5, 10, "mixed"), 0, 0, 0, 0),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 5, 10, "mixed"), 1, 0, 1, 5 * SEC),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 0, 10, "zero"), 1, 0, 1, 5 * SEC),
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, -1, 10, "neg"), 1, 0, 1, 5 * SEC),
    };
    velstatus_progress *r = build(ctx, ops, 7, 10 * SEC);
    ck_assert_uint_eq(velstatus_progress_unit_count(r), 6);
    /* backwards: updated before started */
    ck_unit(r, 0, "backwards");
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 0, &rate), 0);
    ck_assert_double_eq(rate, 0);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 0, &eta), 0);
    ck_assert_int_eq(eta, 0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 0), VELSTATUS_PROGRESS_F_UNTIMED);
    /* future: started after now */
    ck_unit(r, 1, "future");
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 1, NULL), 0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 1), VELSTATUS_PROGRESS_F_UNTIMED);
    /* mixed: the timed one gives the rate (1/s), the other is flagged */
    ck_unit(r, 2, "mixed");
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 2, &rate), 1);
    ck_assert_double_eq(rate, 1.0);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 2, &eta), 1);
    ck_assert_int_eq(eta, 10);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 2), VELSTATUS_PROGRESS_F_UNTIMED);
    /* neg: a negative count cannot make a rate */
    ck_unit(r, 3, "neg");
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 3, NULL), 0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 3),
                      VELSTATUS_PROGRESS_F_UNTIMED | VELSTATUS_PROGRESS_F_NEGATIVE);
    /* nostart */
    ck_unit(r, 4, "nostart");
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 4, NULL), 0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 4), VELSTATUS_PROGRESS_F_UNTIMED);
    /* zero: a known rate of 0 gives no ETA */
    ck_unit(r, 5, "zero");
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 5, &rate), 1);
    ck_assert_double_eq(rate, 0.0);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 5, NULL), 0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 5), 0);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_rate_extremes)
{
    velstatus_ctx *ctx = vs_test_ctx();
    int64_t eta;
    double rate;
    char *js;
    velstatus__prog_op ops[] = {
        /* 1 unit in 3 s: 0.333/s (rounded to 0.001) */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 1, 1001, "a"), 1, 0, 1, 3 * SEC),
        /* a huge total at 1 unit per 1000 s: the ETA is capped */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 1, INT64_MAX, "b"), 1, 0, 1, 1000 * SEC),
        /* INT64_MAX units in 1 ns: the rate saturates at 2^53 */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, INT64_MAX, INT64_MAX, "c"), 1, INT64_MIN, 1, INT64_MIN + 1),
        /* full int64 interval (INT64_MIN .. INT64_MAX) does not overflow */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, INT64_MAX, INT64_MAX, "d"), 1, INT64_MIN, 1, INT64_MAX),
        /* 0.0004/s rounds to a known rate of 0: no ETA */
        T(P(VELSTATUS_OP_PHASE_IN_PROGRESS, 4, 100, "e"), 1, 0, 1, 10000 * SEC),
    };
    velstatus_progress *r = build(ctx, ops, 5, 0);
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 0, &rate), 1);
    ck_assert_double_eq(rate, 0.333);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 0, &eta), 1);
    ck_assert_int_eq(eta, 3004); /* 1000 / 0.333 = 3003.003 -> 3004 */
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 1, &eta), 1);
    ck_assert_int_eq(eta, INT64_C(9223372036));
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 1), VELSTATUS_PROGRESS_F_SATURATED);
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 2, &rate), 1);
    ck_assert_double_eq(rate, 9007199254740992.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 2), VELSTATUS_PROGRESS_F_SATURATED);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 2, &eta), 1); /* nothing left: ETA 0 */
    ck_assert_int_eq(eta, 0);
    /* (2^63 - 1) units in (2^64 - 1) ns: 0.5e9 per second */
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 3, &rate), 1);
    ck_assert_double_eq(rate, 500000000.0);
    ck_assert_uint_eq(velstatus_progress_unit_flags(r, 3), 0);
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 4, &rate), 1);
    ck_assert_double_eq(rate, 0.0);
    ck_assert_int_eq(velstatus_progress_unit_eta(r, 4, NULL), 0);
    ck_assert_int_eq(velstatus_progress_to_json(&js, NULL, r, NULL), VELSTATUS_OK);
    ck_assert_ptr_nonnull(strstr(js, "\"units\":\"a\",\"operations\":1,\"completed\":1,\"total\":1001,"
                                     "\"percent\":0.09,\"ratePerSecond\":0.333,\"etaSeconds\":3004}"));
    ck_assert_ptr_nonnull(strstr(js, "\"ratePerSecond\":9007199254740992,\"etaSeconds\":0}"));
    ck_assert_ptr_nonnull(strstr(js, "\"units\":\"e\",\"operations\":1,\"completed\":4,\"total\":100,"
                                     "\"percent\":4,\"ratePerSecond\":0,\"etaSeconds\":null}"));
    velstatus_free(ctx, js);
    velstatus_progress_free(r);
    velstatus_ctx_free(ctx);
}
END_TEST

/* A naive reference (128-bit integers, one pass per unit) against the
 * library on 3000 random lists of extreme values. */
typedef __int128 i128;

static uint64_t rng_state = 88172645463325252u;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int64_t rnd_value(void)
{
    static const int64_t pool[] = {0,
                                   1,
                                   -1,
                                   2,
                                   100,
                                   1000,
                                   INT64_MAX,
                                   INT64_MIN,
                                   INT64_MAX - 1,
                                   INT64_MIN + 1,
                                   INT64_C(1) << 40,
                                   -(INT64_C(1) << 40)};
    if (rnd() % 3 == 0)
        return (int64_t)rnd();
    return pool[rnd() % (sizeof(pool) / sizeof(pool[0]))];
}

START_TEST(agg_reference_random)
{
    static const char *const units[] = {"", "Bytes", "bytes", "B", "items", "Bytes\xff"};
    velstatus_ctx *ctx = vs_test_ctx();
    int round;
    uint32_t seen = 0;
    size_t etas = 0, groups = 0;
    for (round = 0; round < 3000; round++) {
        velstatus__prog_op ops[12], copy[12];
        size_t n = (size_t)(rnd() % 13), i, u, g = 0;
        int64_t now = rnd_value();
        velstatus_progress *r;
        uint32_t want_report_flags = 0;
        size_t counts[7] = {0};
        for (i = 0; i < n; i++) {
            memset(&ops[i], 0, sizeof(ops[i]));
            ops[i].phase = (velstatus_op_phase)(rnd() % 5);
            ops[i].n_completed = rnd_value();
            ops[i].n_total = rnd() % 4 == 0 ? 0 : rnd_value();
            ops[i].units = units[rnd() % 6];
            ops[i].units_len = strlen(ops[i].units);
            ops[i].has_started = (int)(rnd() % 4 != 0);
            ops[i].started = ops[i].has_started ? rnd_value() : 0;
            ops[i].has_updated = (int)(rnd() % 2);
            ops[i].updated = ops[i].has_updated ? rnd_value() : 0;
            copy[i] = ops[i];
        }
        r = build(ctx, ops, n, now);
        counts[VELSTATUS_PROGRESS_ATTEMPTED] = n;
        for (i = 0; i < n; i++) {
            const velstatus__prog_op *op = &copy[i];
            static const velstatus_progress_counter by_phase[] = {
                VELSTATUS_PROGRESS_UNKNOWN_PHASE, VELSTATUS_PROGRESS_NEW, VELSTATUS_PROGRESS_IN_PROGRESS,
                VELSTATUS_PROGRESS_COMPLETED, VELSTATUS_PROGRESS_FAILED};
            counts[by_phase[op->phase]]++;
            if (op->phase == VELSTATUS_OP_PHASE_UNKNOWN) {
                want_report_flags |= VELSTATUS_PROGRESS_F_UNKNOWN_PHASE;
                continue;
            }
            if (op->n_total == 0)
                counts[VELSTATUS_PROGRESS_UNQUANTIFIED]++;
            if (op->n_completed < 0 || op->n_total < 0)
                want_report_flags |= VELSTATUS_PROGRESS_F_NEGATIVE;
            if (op->n_completed > op->n_total)
                want_report_flags |= VELSTATUS_PROGRESS_F_OVER_TOTAL;
        }
        for (i = 0; i < 7; i++)
            ck_assert_uint_eq(velstatus_progress_count(r, (velstatus_progress_counter)i), counts[i]);
        /* Units in sorted order: "", "B", "Bytes", "Bytes\xff", "bytes", "items". */
        for (u = 0; u < 6; u++) {
            static const int order[] = {0, 3, 1, 5, 2, 4};
            const char *unit = units[order[u]];
            i128 c = 0, t = 0, rem = 0;
            size_t nops = 0;
            uint32_t flags = 0, pct;
            double rate = 0;
            int rated = 0;
            int64_t lo = INT64_MIN, hi = INT64_MAX;
            for (i = 0; i < n; i++) {
                const velstatus__prog_op *op = &copy[i];
                if (op->phase == VELSTATUS_OP_PHASE_UNKNOWN || op->n_total == 0 || strcmp(op->units, unit) != 0)
                    continue;
                nops++;
                c += op->n_completed;
                t += op->n_total;
                if (op->n_completed < 0 || op->n_total < 0)
                    flags |= VELSTATUS_PROGRESS_F_NEGATIVE;
                if (op->n_completed > op->n_total)
                    flags |= VELSTATUS_PROGRESS_F_OVER_TOTAL;
                if ((op->phase == VELSTATUS_OP_PHASE_NEW || op->phase == VELSTATUS_OP_PHASE_IN_PROGRESS) &&
                    op->n_total > (op->n_completed > 0 ? op->n_completed : 0))
                    rem += (i128)op->n_total - (op->n_completed > 0 ? op->n_completed : 0);
                if (op->phase == VELSTATUS_OP_PHASE_IN_PROGRESS) {
                    int64_t end = op->has_updated ? op->updated : now;
                    if (!op->has_started || end <= op->started || op->n_completed < 0) {
                        flags |= VELSTATUS_PROGRESS_F_UNTIMED;
                    } else {
                        rate += (double)op->n_completed * 1e9 / (double)((i128)end - op->started);
                        rated = 1;
                    }
                }
            }
            if (nops == 0)
                continue;
            ck_assert_uint_lt(g, velstatus_progress_unit_count(r));
            ck_unit(r, g, unit);
            ck_assert_uint_eq(velstatus_progress_unit_operations(r, g), nops);
            if (c > 0 && t > 0 && c > t)
                flags |= VELSTATUS_PROGRESS_F_OVER_TOTAL;
            if (c > hi || c < lo || t > hi || t < lo)
                flags |= VELSTATUS_PROGRESS_F_SATURATED;
            ck_assert_int_eq(velstatus_progress_unit_completed(r, g), c > hi ? hi : c < lo ? lo : (int64_t)c);
            ck_assert_int_eq(velstatus_progress_unit_total(r, g), t > hi ? hi : t < lo ? lo : (int64_t)t);
            pct = (t <= 0 || c <= 0) ? 0 : c >= t ? 10000 : (uint32_t)(c * 10000 / t);
            ck_assert_double_eq(velstatus_progress_unit_percent(r, g), (double)pct / 100.0);
            ck_assert_int_eq(velstatus_progress_unit_rate(r, g, NULL), rated);
            if (rated) {
                double got, want_rate, eta_d;
                uint64_t milli;
                int64_t eta;
                if (rate * 1000.0 < 1e15) {
                    milli = (uint64_t)(rate * 1000.0 + 0.5);
                } else if (rate < 9007199254740992.0) {
                    milli = (uint64_t)(rate + 0.5) * 1000u;
                } else {
                    milli = UINT64_C(9007199254740992000);
                    flags |= VELSTATUS_PROGRESS_F_SATURATED;
                }
                want_rate = milli % 1000u ? (double)milli / 1000.0 : (double)(milli / 1000u);
                velstatus_progress_unit_rate(r, g, &got);
                ck_assert_double_eq(got, want_rate);
                ck_assert_int_eq(velstatus_progress_unit_eta(r, g, &eta), milli > 0);
                if (milli > 0) {
                    eta_d = (double)rem / want_rate;
                    if (eta_d > 9223372036.0) {
                        ck_assert_int_eq(eta, INT64_C(9223372036));
                        flags |= VELSTATUS_PROGRESS_F_SATURATED;
                    } else {
                        int64_t want_eta = (int64_t)eta_d; /* ceil, exactly */
                        if ((double)want_eta < eta_d)
                            want_eta++;
                        ck_assert_msg(eta == want_eta, "eta %lld for %g", (long long)eta, eta_d);
                    }
                }
            } else {
                ck_assert_int_eq(velstatus_progress_unit_eta(r, g, NULL), 0);
            }
            ck_assert_uint_eq(velstatus_progress_unit_flags(r, g), flags);
            want_report_flags |= flags;
            seen |= flags;
            etas += (size_t)velstatus_progress_unit_eta(r, g, NULL);
            g++;
        }
        ck_assert_uint_eq(velstatus_progress_unit_count(r), g);
        ck_assert_uint_eq(velstatus_progress_flags(r), want_report_flags);
        groups += g;
        velstatus_progress_free(r);
    }
    /* The random lists did reach every case. */
    ck_assert_uint_eq(seen, VELSTATUS_PROGRESS_F_OVER_TOTAL | VELSTATUS_PROGRESS_F_NEGATIVE |
                                VELSTATUS_PROGRESS_F_SATURATED | VELSTATUS_PROGRESS_F_UNTIMED);
    ck_assert_uint_gt(etas, 100);
    ck_assert_uint_gt(groups, 5000);
    velstatus_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------------------------------ */
/* through the public API, from an oplist                              */
/* ------------------------------------------------------------------ */

typedef struct top {
    const char *phase;
    int64_t c, t;
    const char *units;
    int hs;
    int64_t s;
    int hu;
    int64_t u;
} top;

static velstatus_oplist *mk_list(velstatus_ctx *ctx, const top *ops, size_t n)
{
    velstatus_oplist *l = NULL;
    size_t i, idx;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
    for (i = 0; i < n; i++) {
        ck_assert_int_eq(velstatus_oplist_append(&idx, l, NULL), VELSTATUS_OK);
        ck_assert_int_eq(
            velstatus_oplist_set_string(l, idx, VELSTATUS_OP_FIELD_PHASE, ops[i].phase, strlen(ops[i].phase), NULL),
            VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_set_counts(l, idx, ops[i].c, ops[i].t, NULL), VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_set_string(l, idx, VELSTATUS_OP_FIELD_OPERATION_UNITS, ops[i].units,
                                                     strlen(ops[i].units), NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_set_time(l, idx, VELSTATUS_OP_TIME_STARTED, ops[i].hs, ops[i].s, NULL),
                         VELSTATUS_OK);
        ck_assert_int_eq(velstatus_oplist_set_time(l, idx, VELSTATUS_OP_TIME_UPDATED, ops[i].hu, ops[i].u, NULL),
                         VELSTATUS_OK);
    }
    return l;
}

/* The example line, with numbers whose ETA is exact in binary. */
static const top example[] = {
    {"Completed", 512 * MiB, 512 * MiB, "Bytes", 0, 0, 0, 0},
    {"Completed", 512 * MiB, 512 * MiB, "Bytes", 0, 0, 0, 0},
    {"Failed", 0, GiB, "Bytes", 0, 0, 0, 0},
    {"InProgress", 256 * MiB, GiB, "Bytes", 1, 1000 * SEC, 1, 1064 * SEC},
    {"InProgress", 256 * MiB, GiB, "Bytes", 1, 1000 * SEC, 0, 0},
};
static const char example_summary[] =
    "3 of 5 operations done (1 failed, 2 in progress); Bytes: 1.5 GiB of 4.0 GiB (37%), ETA 3m12s";
static const char example_json[] =
    "{\"attempted\":5,\"new\":0,\"inProgress\":2,\"completed\":2,\"failed\":1,\"unquantified\":0,"
    "\"units\":[{\"units\":\"Bytes\",\"operations\":5,\"completed\":1610612736,\"total\":4294967296,"
    "\"percent\":37.5,\"ratePerSecond\":8388608,\"etaSeconds\":192}],"
    "\"summary\":\"3 of 5 operations done (1 failed, 2 in progress); Bytes: 1.5 GiB of 4.0 GiB (37%), ETA 3m12s\"}";

START_TEST(api_example)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = mk_list(ctx, example, 5);
    velstatus_progress *r = NULL;
    char *s;
    size_t len;
    double rate;
    ck_assert_int_eq(velstatus_progress_new(&r, ctx, l, 1064 * SEC, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_progress_unit_rate(r, 0, &rate), 1);
    ck_assert_double_eq(rate, 8388608.0);
    ck_assert_int_eq(velstatus_progress_summary(&s, &len, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, example_summary);
    ck_assert_uint_eq(len, strlen(example_summary));
    velstatus_free(ctx, s);
    ck_assert_int_eq(velstatus_progress_to_json(&s, &len, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, example_json);
    ck_assert_uint_eq(len, strlen(example_json));
    velstatus_free(ctx, s);
    velstatus_progress_free(r);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(api_summary_shapes)
{
    static const top ops[] = {
        {"New", 0, 10, "items", 0, 0, 0, 0},        {"", 0, 0, "", 0, 0, 0, 0},
        {"Canceled", 0, 0, "", 0, 0, 0, 0},         {"Completed", 2, 0, "", 0, 0, 0, 0},
        {"Completed", 1, 2, "", 0, 0, 0, 0},        {"InProgress", 1, 4, "bytes", 1, 0, 1, SEC},
        {"InProgress", 3, 4, "x<&>\"", 0, 0, 0, 0},
    };
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = mk_list(ctx, ops, 7);
    velstatus_progress *r = NULL;
    char *s;
    ck_assert_int_eq(velstatus_progress_new(&r, ctx, l, 0, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_progress_summary(&s, NULL, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, "2 of 7 operations done (0 failed, 2 in progress, 1 new, 2 with unknown phase); "
                        "(no unit): 1 of 2 (50%); bytes: 1 B of 4 B (25%), ETA 3s; items: 0 of 10 (0%); "
                        "x<&>\": 3 of 4 (75%); 1 without a total");
    velstatus_free(ctx, s);
    ck_assert_int_eq(velstatus_progress_to_json(&s, NULL, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, "{\"attempted\":7,\"new\":1,\"inProgress\":2,\"completed\":2,\"failed\":0,"
                        "\"unquantified\":1,\"units\":["
                        "{\"units\":\"\",\"operations\":1,\"completed\":1,\"total\":2,\"percent\":50,"
                        "\"ratePerSecond\":null,\"etaSeconds\":null},"
                        "{\"units\":\"bytes\",\"operations\":1,\"completed\":1,\"total\":4,\"percent\":25,"
                        "\"ratePerSecond\":1,\"etaSeconds\":3},"
                        "{\"units\":\"items\",\"operations\":1,\"completed\":0,\"total\":10,\"percent\":0,"
                        "\"ratePerSecond\":null,\"etaSeconds\":null},"
                        "{\"units\":\"x\\u003c\\u0026\\u003e\\\"\",\"operations\":1,\"completed\":3,\"total\":4,"
                        "\"percent\":75,\"ratePerSecond\":null,\"etaSeconds\":null}],"
                        "\"summary\":\"2 of 7 operations done (0 failed, 2 in progress, 1 new, 2 with unknown "
                        "phase); (no unit): 1 of 2 (50%); bytes: 1 B of 4 B (25%), ETA 3s; items: 0 of 10 (0%); "
                        "x\\u003c\\u0026\\u003e\\\": 3 of 4 (75%); 1 without a total\"}");
    velstatus_free(ctx, s);
    velstatus_progress_free(r);
    velstatus_oplist_free(l);

    /* One operation: singular. */
    l = mk_list(ctx, ops + 4, 1);
    ck_assert_int_eq(velstatus_progress_new(&r, ctx, l, 0, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_progress_summary(&s, NULL, r, NULL), VELSTATUS_OK);
    ck_assert_str_eq(s, "1 of 1 operation done (0 failed); (no unit): 1 of 2 (50%)");
    velstatus_free(ctx, s);
    velstatus_progress_free(r);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(api_invalid)
{
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = mk_list(ctx, example, 1);
    velstatus_progress *r = NULL;
    velstatus_error err;
    char *s = NULL;
    ck_assert_int_eq(velstatus_progress_new(NULL, ctx, l, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "out"));
    ck_assert_int_eq(velstatus_progress_new(&r, NULL, l, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "ctx"));
    ck_assert_int_eq(velstatus_progress_new(&r, ctx, NULL, 0, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "ops"));
    ck_assert_ptr_null(r);
    ck_assert_int_eq(velstatus_progress_summary(&s, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_progress_summary(NULL, NULL, r, NULL), VELSTATUS_E_INVALID);
    ck_assert_int_eq(velstatus_progress_to_json(&s, NULL, NULL, &err), VELSTATUS_E_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "report"));
    ck_assert_ptr_null(s);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

START_TEST(agg_failalloc_many_units)
{
    static const char *const units[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
                                        "k", "l", "m", "n", "o", "p", "q", "r", "s", "t"};
    velstatus__prog_op ops[40];
    velstatus_status st = VELSTATUS_OK;
    size_t i;
    for (i = 0; i < 40; i++)
        ops[i] = P(VELSTATUS_OP_PHASE_IN_PROGRESS, 1, 2, units[(i * 7) % 20]);
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_progress *r = NULL;
        st = velstatus__progress_build(&r, ctx, ops, 40, 0, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_uint_eq(velstatus_progress_unit_count(r), 20);
            ck_unit(r, 19, "t");
        }
        velstatus_progress_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
}
END_TEST

START_TEST(api_failalloc)
{
    velstatus_ctx *lctx = vs_test_ctx();
    velstatus_oplist *l = mk_list(lctx, example, 5);
    static const top more[] = {{"New", 0, 10, "b", 0, 0, 0, 0}, {"New", 0, 10, "a", 0, 0, 0, 0}};
    velstatus_oplist *l2 = mk_list(lctx, more, 2);
    velstatus_status st = VELSTATUS_OK;
    VS_FAILALLOC_LOOP(fa, ctx)
    {
        velstatus_progress *r = NULL;
        char *s = NULL, *j = NULL;
        st = velstatus_progress_new(&r, ctx, l, 1064 * SEC, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_progress_summary(&s, NULL, r, NULL);
        if (st == VELSTATUS_OK)
            st = velstatus_progress_to_json(&j, NULL, r, NULL);
        if (st == VELSTATUS_OK) {
            ck_assert_str_eq(s, example_summary);
            ck_assert_str_eq(j, example_json);
            velstatus_progress_free(r);
            r = NULL;
            st = velstatus_progress_new(&r, ctx, l2, 0, NULL);
            if (st == VELSTATUS_OK)
                ck_assert_uint_eq(velstatus_progress_unit_count(r), 2);
        }
        velstatus_free(ctx, s);
        velstatus_free(ctx, j);
        velstatus_progress_free(r);
    }
    VS_FAILALLOC_END(fa, ctx, st);
    velstatus_oplist_free(l);
    velstatus_oplist_free(l2);
    velstatus_ctx_free(lctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("tabwriter");
    tcase_add_test(tc, tw_matches_go_vectors);
    tcase_add_test(tc, tw_velero_cases);
    tcase_add_test(tc, tw_options);
    tcase_add_test(tc, tw_limits);
    tcase_add_test(tc, tw_runecount);
    tcase_add_test(tc, tw_failalloc);
    suite_add_tcase(s, tc);
    tc = tcase_create("numbers");
    tcase_add_test(tc, numbers);
    suite_add_tcase(s, tc);
    tc = tcase_create("aggregate");
    tcase_add_test(tc, agg_counts_and_units);
    tcase_add_test(tc, agg_empty);
    tcase_add_test(tc, agg_zero_totals);
    tcase_add_test(tc, agg_overflow_sums);
    tcase_add_test(tc, agg_order_independent);
    tcase_add_test(tc, agg_many_units);
    tcase_add_test(tc, agg_over_total_and_negative);
    tcase_add_test(tc, agg_rate_and_eta);
    tcase_add_test(tc, agg_missing_timestamps);
    tcase_add_test(tc, agg_rate_extremes);
    tcase_add_test(tc, agg_reference_random);
    suite_add_tcase(s, tc);
    tc = tcase_create("api");
    tcase_add_test(tc, api_example);
    tcase_add_test(tc, api_summary_shapes);
    tcase_add_test(tc, api_invalid);
    tcase_add_test(tc, api_failalloc);
    tcase_add_test(tc, agg_failalloc_many_units);
    suite_add_tcase(s, tc);
    return s;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* Go's %q (lib/common/go_quote.c) against what Go itself writes:
 * tests/data/quote/go-quote.json is strconv.Quote's output from Go 1.19
 * (Unicode 13.0.0, as Go 1.20 that built Velero 1.11 and 1.12), written by
 * `go run scripts/go-isprint.go vectors`. The runes assigned in Unicode 14
 * and 15 are escaped under 13.0.0 and written as they are under 15.0.0 (Go
 * 1.21 to 1.25: Velero 1.13 to 1.18). The texts the issue names (issue 20)
 * go through a reconcile pass under both releases. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "velstatus.h"
#include "operations/private.h"

static size_t unhex(const char *h, char *out)
{
    size_t n = strlen(h) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        ck_assert(sscanf(h + 2 * i, "%2x", &v) == 1);
        out[i] = (char)v;
    }
    return n;
}

static char *quote(velstatus_ctx *ctx, const char *s, size_t len, const velstatus_policy *pol)
{
    velstatus__buf b;
    char *out = NULL;
    velstatus__buf_init(&b, ctx);
    velstatus__go_quote_pol(&b, NULL, s, len, pol);
    ck_assert_int_eq(velstatus__buf_finish(&b, &out, NULL, NULL), VELSTATUS_OK);
    return out;
}

START_TEST(go_vectors_unicode_13)
{
    size_t len = 0, i;
    char *text = vs_test_read_data("quote/go-quote.json", &len);
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr), *vecs, *v;
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy p12;
    ck_assert_int_eq(velstatus_policy_init_release(&p12, sizeof(p12), 1, 12, NULL), VELSTATUS_OK);
    ck_assert_int_eq(p12.quote_unicode_13, 1);
    free(text);
    ck_assert_msg(root != NULL, "go-quote.json: %s", jerr.text);
    ck_assert_str_eq(json_string_value(json_object_get(root, "unicode")), "13.0.0");
    vecs = json_object_get(root, "vectors");
    ck_assert_uint_gt(json_array_size(vecs), 1500);
    json_array_foreach(vecs, i, v)
    {
        const char *h = json_string_value(json_object_get(v, "in"));
        char in[64];
        size_t n;
        char *got;
        ck_assert(strlen(h) / 2 < sizeof(in));
        n = unhex(h, in);
        got = quote(ctx, in, n, &p12);
        ck_assert_msg(strcmp(got, json_string_value(json_object_get(v, "out"))) == 0, "%s: got %s, Go %s", h, got,
                      json_string_value(json_object_get(v, "out")));
        velstatus_free(ctx, got);
    }
    json_decref(root);
    velstatus_ctx_free(ctx);
}
END_TEST

/* U+1FAE8 (Unicode 15), U+0870 (14), U+31350 (15, CJK Ext. H): escaped by
 * Go 1.20, as they are by Go 1.21 and later. Not printable in either:
 * U+0378 (unassigned), U+E0001, U+2028, U+00A0, U+FEFF. */
START_TEST(unicode_15_runes_by_release)
{
    static const struct {
        uint32_t r;
        int p13, p15;
    } cases[] = {{0x1FAE8, 0, 1}, {0x0870, 0, 1}, {0x31350, 0, 1}, {0x0378, 0, 0}, {0xE0001, 0, 0},
                 {0x2028, 0, 0},  {0x00A0, 0, 0}, {0xFEFF, 0, 0},  {0x00E9, 1, 1}, {0x1F600, 1, 1}};
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_policy p12, p13;
    ck_assert_int_eq(velstatus_policy_init_release(&p12, sizeof(p12), 1, 12, NULL), VELSTATUS_OK);
    ck_assert_int_eq(velstatus_policy_init_release(&p13, sizeof(p13), 1, 13, NULL), VELSTATUS_OK);
    ck_assert_int_eq(p13.quote_unicode_13, 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ck_assert_int_eq(velstatus__go_is_print(cases[i].r, 1), cases[i].p13);
        ck_assert_int_eq(velstatus__go_is_print(cases[i].r, 0), cases[i].p15);
    }
    {
        char *a = quote(ctx, "\xf0\x9f\xab\xa8", 4, &p12), *b = quote(ctx, "\xf0\x9f\xab\xa8", 4, &p13);
        ck_assert_str_eq(a, "\"\\U0001fae8\"");
        ck_assert_str_eq(b, "\"\xf0\x9f\xab\xa8\"");
        velstatus_free(ctx, a);
        velstatus_free(ctx, b);
    }
    velstatus_ctx_free(ctx);
}
END_TEST

/* The BSL-missing text of a reconcile pass quotes as Go does (issue 20's
 * list: U+2028, U+00A0, U+200B, U+FEFF, U+0085, U+00AD, U+3000, U+0378,
 * private use U+E000, U+E0001), and the plugin-lookup text names the plugin
 * as the manager registers it. */
START_TEST(reconcile_texts_quote_as_go)
{
    static const char name[] = "a\xe2\x80\xa8\xc2\xa0\xe2\x80\x8b\xef\xbb\xbf\xc2\x85\xc2\xad\xe3\x80\x80\xcd\xb8"
                               "\xee\x80\x80\xf3\xa0\x80\x81\xc3\xa9z";
    static const char want[] =
        "backupstoragelocations.velero.io "
        "\"a\\u2028\\u00a0\\u200b\\ufeff\\u0085\\u00ad\\u3000\\u0378\\ue000\\U000e0001\xc3\xa9z\""
        " not found";
    velstatus_ctx *ctx = vs_test_ctx();
    velstatus_oplist *l = NULL;
    velstatus_reconcile_options o;
    velstatus_reconcile_result *r = NULL;
    velstatus_policy pol = vs_policy(VELSTATUS_PRESET_VELERO);
    size_t n;
    ck_assert_int_eq(velstatus_oplist_new(&l, ctx, VELSTATUS_KIND_BACKUP, NULL), VELSTATUS_OK);
    velstatus_reconcile_options_init(&o, sizeof(o));
    o.bsl = VELSTATUS_BSL_MISSING;
    o.bsl_name = name;
    o.bsl_name_len = sizeof(name) - 1;
    ck_assert_int_eq(velstatus_oplist_reconcile(&r, l, NULL, &o, &pol, NULL), VELSTATUS_OK);
    ck_assert_uint_eq(velstatus_reconcile_result_error_count(r), 1);
    ck_assert_str_eq(velstatus_reconcile_result_error(r, 0, &n), want);
    velstatus_reconcile_result_free(r);
    velstatus_oplist_free(l);
    velstatus_ctx_free(ctx);
}
END_TEST

Suite *velstatus_test_suite(void)
{
    Suite *s = suite_create("go_quote");
    TCase *tc = tcase_create("go_quote");
    tcase_add_test(tc, go_vectors_unicode_13);
    tcase_add_test(tc, unicode_15_runes_by_release);
    tcase_add_test(tc, reconcile_texts_quote_as_go);
    suite_add_tcase(s, tc);
    return s;
}

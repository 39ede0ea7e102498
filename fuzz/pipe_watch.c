/* SPDX-License-Identifier: Apache-2.0 */
/* Pipeline: the watch-stream splitter of server-status --watch
 * (tools/watch_stream.c). TEXT is the stream. It is fed whole, and again cut
 * at points the tail chooses (down to one byte at a time); both runs must
 * hand out the same objects and report the same malformed stretches at the
 * same positions, in the same order. Every object handed out must be one
 * JSON value the library's scanner accepts whole, starting with '{'; every
 * reported offset must lie inside the stream; the buffer must never hold
 * more than the object limit plus one feed. */
#include "fuzz.h"

#include <string.h>

#include "common/json_scan.h"
#include "watch_stream.h"

typedef struct watch_log {
    vs_fuzz_env *env;
    vs_fuzz_buf text;
    size_t stream_len;
} watch_log;

static int on_object(void *ud, const char *obj, size_t len, vs_watch_pos at)
{
    watch_log *l = ud;
    size_t end = 0;
    velstatus__json_scan_err e;
    VS_FUZZ_CHECK(l->env, len > 0 && obj[0] == '{' && at.offset + len <= l->stream_len);
    VS_FUZZ_CHECK(l->env, velstatus__json_scan(obj, len, &end, &e) && end == len);
    vs_fuzz_buf_add(&l->text, "O", 1);
    vs_fuzz_buf_add(&l->text, &at, sizeof(at));
    vs_fuzz_buf_add(&l->text, &len, sizeof(len));
    return 0;
}

static int on_error(void *ud, vs_watch_pos at, const char *reason)
{
    watch_log *l = ud;
    VS_FUZZ_CHECK(l->env, at.offset <= l->stream_len && reason && reason[0] != '\0');
    vs_fuzz_buf_add(&l->text, "E", 1);
    vs_fuzz_buf_add(&l->text, &at, sizeof(at));
    vs_fuzz_buf_add(&l->text, reason, strlen(reason));
    return 0;
}

/* Feeds text in pieces of the sizes `piece` gives (0: whole). */
static void feed(vs_fuzz_env *env, vs_fuzz_in *in, watch_log *l, size_t max_object, int cut)
{
    vs_watch_split sp;
    size_t i = 0;
    vs_watch_split_init(&sp, max_object, on_object, on_error, l);
    while (i < in->text_len) {
        size_t n = cut ? 1 + vs_fuzz_pick(in, 64) : in->text_len - i;
        if (n > in->text_len - i)
            n = in->text_len - i;
        VS_FUZZ_CHECK(env, vs_watch_split_feed(&sp, in->text + i, n) == 0);
        VS_FUZZ_CHECK(env, sp.len <= max_object + n + 1);
        i += n;
    }
    VS_FUZZ_CHECK(env, vs_watch_split_end(&sp) == 0);
    VS_FUZZ_CHECK(env, sp.len == 0);
    vs_watch_split_free(&sp);
}

void vs_pipe_watch(vs_fuzz_env *env, vs_fuzz_in *in)
{
    watch_log whole = {env, {0}, in->text_len}, cut = {env, {0}, in->text_len};
    size_t max_object = 64 + vs_fuzz_pick(in, 4096);
    feed(env, in, &whole, max_object, 0);
    feed(env, in, &cut, max_object, 1);
    /* The object limit is checked per feed: a whole feed may let a larger
     * object through that pieces stop, so compare only when no object came
     * near the limit. */
    if (in->text_len <= max_object && !vs_fuzz_same(whole.text.p, whole.text.len, cut.text.p, cut.text.len))
        vs_fuzz_fail(env, "the pieces give other objects or errors than the whole stream");
    vs_fuzz_buf_free(&whole.text);
    vs_fuzz_buf_free(&cut.text);
}

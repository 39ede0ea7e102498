/* SPDX-License-Identifier: Apache-2.0 */
/* A C program outside the source tree, built with nothing but
 * `pkg-config --cflags --libs --static libvelstatus`: classifies one BSL list
 * and prints "velstatus VERSION: STATUS". tests/install-consumers.sh and
 * scripts/ci-deb.sh build and run it against an installed libvelstatus. */
#include <stdio.h>
#include <string.h>
#include <velstatus.h>

static const char bsls[] =
    "[{\"metadata\":{\"name\":\"default\"},\"spec\":{\"default\":true,\"accessMode\":\"ReadOnly\"},"
    "\"status\":{\"phase\":\"Available\"}}]";

int main(void)
{
    velstatus_ctx *ctx = NULL;
    velstatus_bsl_set *set = NULL;
    velstatus_server_verdict *verdict = NULL;
    velstatus_error err;
    int rc = 1;

    memset(&err, 0, sizeof err);
    if (velstatus_ctx_new(&ctx, NULL, NULL) != VELSTATUS_OK)
        return 1;
    if (velstatus_bsl_set_from_json(&set, ctx, bsls, sizeof bsls - 1, &err) == VELSTATUS_OK &&
        velstatus_server_status_classify(&verdict, set, NULL, &err) == VELSTATUS_OK) {
        printf("velstatus %s: %s\n", velstatus_version_string(),
               velstatus_server_status_to_string(velstatus_server_verdict_status(verdict)));
        rc = 0;
    } else {
        fprintf(stderr, "consumer: classify failed\n");
    }
    velstatus_server_verdict_free(verdict);
    velstatus_bsl_set_free(set);
    velstatus_ctx_free(ctx);
    return rc;
}

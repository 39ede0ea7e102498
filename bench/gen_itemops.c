/* SPDX-License-Identifier: Apache-2.0 */
/* Writes a realistic <name>-itemoperations.json of N backup records to
 * stdout, exactly as Velero's json.Encoder would (one line, trailing
 * newline): CSI data-mover operations with post-operation items, a mix of
 * phases, progress in Bytes, second-precision UTC times. Deterministic.
 *
 *   gen_itemops [N] [progress]  -- with "progress", writes instead a
 *   PROGRESS.json for `velstatus operations reconcile`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static unsigned long long next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const phases[] = {"Completed", "InProgress", "InProgress", "New", "Failed"};

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    int progress = argc > 2 && strcmp(argv[2], "progress") == 0;
    putchar(progress ? '{' : '[');
    for (long i = 0; i < n; i++) {
        unsigned long long r = next();
        const char *ph = phases[r % 5];
        long long total = (long long)(1 + (r >> 8) % 512) * 1073741824LL / 8;
        long long done = ph[0] == 'C' ? total : ph[0] == 'N' ? 0 : total / (long long)(2 + (r >> 20) % 7);
        char id[64];
        snprintf(id, sizeof(id), "du-nightly-20240501-%08lx%04lx", (unsigned long)(r >> 32),
                 (unsigned long)i % 0x10000);
        if (i)
            putchar(',');
        if (progress) {
            printf("\"%s\":{\"nCompleted\":%lld,\"nTotal\":%lld,\"operationUnits\":\"Bytes\",\"description\":"
                   "\"InProgress\",\"started\":\"2024-05-01T10:00:05Z\",\"updated\":\"2024-05-01T10:09:00Z\"}",
                   id, done, total);
            continue;
        }
        printf("{\"spec\":{\"backupName\":\"nightly-20240501\",\"backupUID\":\"0b6a2c1e-3f0d-4d6e-9d1a-5c2b7e8f9a10\","
               "\"backupItemAction\":\"velero.io/csi-pvc-backupper\",\"resourceIdentifier\":{\"Group\":\"\","
               "\"Resource\":\"persistentvolumeclaims\",\"Namespace\":\"team-%03ld\",\"Name\":\"data-%s-%ld\"},"
               "\"operationID\":\"%s\",\"postOperationItems\":[{\"Group\":\"velero.io\",\"Resource\":\"datauploads\","
               "\"Namespace\":\"velero\",\"Name\":\"nightly-20240501-%ld\"}]},\"status\":{\"phase\":\"%s\"",
               i % 250, (r & 1) ? "postgres" : "elasticsearch", i, id, i, ph);
        if (ph[0] == 'F')
            printf(",\"error\":\"DataUpload nightly-20240501-%ld failed: data path error: error to run backup: "
                   "connection reset by peer\"",
                   i);
        if (done)
            printf(",\"nCompleted\":%lld", done);
        if (ph[0] != 'N')
            printf(",\"nTotal\":%lld,\"operationUnits\":\"Bytes\",\"description\":\"%s\"", total, ph);
        printf(",\"created\":\"2024-05-01T10:%02ld:%02ldZ\"", (i / 60) % 60, i % 60);
        if (ph[0] != 'N')
            printf(",\"started\":\"2024-05-01T11:00:%02ldZ\",\"updated\":\"2024-05-01T11:30:%02ldZ\"", i % 60, i % 60);
        printf("}}");
    }
    printf(progress ? "}\n" : "]\n");
    return 0;
}

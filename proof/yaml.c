/* SPDX-License-Identifier: Apache-2.0 */
/* Proof driver: the YAML scalar resolution of the CLI (tools/yaml_scalar.c)
 * on every scalar text of 0 to PROOF_N bytes, as the converter
 * (tools/yaml_json.c, put_value() and key_text()) calls it: every tag
 * libyaml can hand over (none, each tag go-yaml resolves, the merge tag, a
 * custom one), plain or not; then, as the converter does with the
 * result, the base64 decoder of a !!binary scalar into a buffer of n + 1
 * bytes. The float formatters (a double in, not text) are not analysed
 * (doc/proof.md). The event parsing that finds the scalar is
 * libyaml's, outside this tree and this proof (doc/proof.md). */
#include <stdint.h>

#include "proof_input.h"
#include "yaml_json.h"

/* The tags libyaml hands over, resolved (NUL-terminated, as libyaml makes
 * them): none, each one go-yaml resolves, the merge tag, the bare prefix,
 * a tag past a known one and one short of the prefix, and custom ones. short_tag() only compares the tag as a
 * string with strncmp() and strcmp() (doc/proof.md). */
static const char *pick_tag(void)
{
    static const char *const tags[] = {
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:timestamp",
        "tag:yaml.org,2002:binary",
        "tag:yaml.org,2002:merge",
        "tag:yaml.org,2002:",
        "tag:yaml.org,2002:strx",
        "tag:yaml.org,2002",
        "!",
        "!custom",
        "tag:example.com,2000:app",
    };
    int k = Frama_C_interval(-1, (int)(sizeof(tags) / sizeof(tags[0])) - 1);
    return k < 0 ? NULL : tags[k];
}

int main(void)
{
    char *s;
    size_t len;
    vs_yaml_value v;
    const char *why = NULL;
    int rc;
    PROOF_INPUT(s, len, 0);
    rc = vs_yaml_resolve(s, len, pick_tag(), Frama_C_nondet(0, 1), &v, &why);
    if (rc == 0 && v.type == VS_YT_BINARY) {
        unsigned char *d = malloc(len + 1);
        if (d) {
            rc = (int)vs_yaml_base64(d, s, len);
            free(d);
        }
    }
    free(s);
    return rc & 1;
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "common/private.h"
#include "velstatus/version.h"

const char *velstatus_version_string(void)
{
    return VELSTATUS_VERSION_STRING;
}

uint32_t velstatus_version_number(void)
{
    return (uint32_t)VELSTATUS_VERSION_NUMBER;
}

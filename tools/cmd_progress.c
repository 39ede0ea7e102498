/* Placeholder until its decision area lands: replaced by that area's issue. */
#include "cli.h"

int cmd_progress(int argc, char **argv)
{
    (void)argc;
    return cli_fail(argv[0], "not available in this build yet");
}

int cmd_describe_operations(int argc, char **argv)
{
    (void)argc;
    return cli_fail(argv[0], "not available in this build yet");
}


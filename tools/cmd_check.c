/* cmd_check.c -- placeholder until the foundation work lands. */
#include "cli.h"

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("check: not built yet");
    return CLI_EXIT_ERROR;
}

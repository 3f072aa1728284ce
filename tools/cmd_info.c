/* cmd_info.c -- placeholder until the foundation work lands. */
#include "cli.h"

int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("info: not built yet");
    return CLI_EXIT_ERROR;
}

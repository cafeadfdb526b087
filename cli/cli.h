/* Shared by the subcommands of ./waterloo. */
#ifndef WATERLOO_CLI_H
#define WATERLOO_CLI_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdio.h>
#include "../engine/engine.h"
#include "../engine/util.h"
#include "../engine/num.h"
#include "../engine/driver.h"
#include "../sim/sim.h" /* sim_scen_load: the one scenario loader of the commands */

const char *opt_get(int argc, char **argv, const char *name, const char *def);
int opt_has(int argc, char **argv, const char *name);
int opt_check(int argc, char **argv, const char *cmd, const char *known);
/* an option given twice (only sim's --set and --players add up): one line on stderr, -1; else 0 */
int opt_once(int argc, char **argv, const char *cmd);
/* the caps every command applies to its options */
#define CLI_MAX_GAMES 100000000L  /* --games: at most 1e8 (SIM_MAX_GAMES, sim/sim.h) */
#define CLI_MAX_THREADS 256       /* --threads: 1..256 */
/* the value v of a command's option, strictly (the num_* rules of engine/num.h): 0, or -1 after
 * one line on stderr naming the command, the option and what it must be, with v escaped */
int opt_u64(const char *cmd, const char *name, const char *v, uint64_t *out);
int opt_long(const char *cmd, const char *name, const char *v, long lo, long hi, long *out);
int opt_int(const char *cmd, const char *name, const char *v, int lo, int hi, int *out);
int opt_double(const char *cmd, const char *name, const char *v, double lo, double hi, double *out);
/* --help: usage printed, 0; a bad option: one line, 2; else -1 (go on).  Every command starts
 *   int rc = cli_args(argc, argv, "NAME", "--opt --flag!", "usage: ...");
 *   if (rc >= 0) return rc; */
int cli_args(int argc, char **argv, const char *cmd, const char *known, const char *usage);
int cmd_version(int argc, char **argv);
/* show --data: the scenario data as transcription tables (cli/show_data.c) */
void show_data(const Scen *sc, FILE *f);
int cmd_engine(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_skill(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_tactics(int argc, char **argv);
/* subcommands from other folders */
int cmd_play(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_strength(int argc, char **argv);
int cmd_scaling(int argc, char **argv);
int cmd_headline(int argc, char **argv);
/* cli/plan.c: the games a cell needs for ±X points */
int cmd_plan(int argc, char **argv);
/* cli/lab.c: the designer's questions (sim/lab.h) */
int cmd_balance(int argc, char **argv);
int cmd_worth(int argc, char **argv);
#endif

# waterloo — build, set-up and checks.  `make run` and `make check` do all set-up on a fresh
# Debian machine: missing packages are installed with apt-get when run as root, otherwise the
# exact command to run is printed.
CC      ?= gcc
CFLAGS  ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fopenmp -MMD -MP
LDLIBS  += -linih -lcjson -lreadline -lgsl -lgslcblas -lm
# ---- web front end (issue 9): ./waterloo serve, libmicrohttpd
LDLIBS  += -lmicrohttpd -lpthread
BUILD   := build
SRC     := $(wildcard engine/*.c ai/*.c sim/*.c cli/*.c front/*.c)
OBJ     := $(SRC:%.c=$(BUILD)/%.o)
LIBSRC  := $(filter-out cli/main.c,$(SRC))
LIBOBJ  := $(LIBSRC:%.c=$(BUILD)/%.o)
TESTSRC := $(wildcard tests/*.c tests/rules/*.c)
TESTOBJ := $(TESTSRC:%.c=$(BUILD)/%.o)
PKGS    := build-essential libinih-dev libcjson-dev libreadline-dev libcriterion-dev pkg-config
PKGS    += libmicrohttpd-dev libgsl-dev
MPIPKGS := libopenmpi-dev openmpi-bin
STAMP   := $(BUILD)/.deps-ok

.PHONY: all deps run check test bench mpi clean rule-coverage web-test func-length report-check install uninstall install-test

all: waterloo

# install the Debian packages of a list that are missing: apt-get as root, else print the command
define install_pkgs
missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ]; then \
    echo "installing:$$missing"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
  else echo "missing packages; run: sudo apt-get install -y$$missing"; exit 1; fi; \
fi
endef

# ---- set-up: install what is missing (root) or say exactly what to install
$(STAMP): Makefile
	@mkdir -p $(BUILD)
	@$(call install_pkgs,$(PKGS))
	@touch $@

deps: $(STAMP)

waterloo: $(STAMP) $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

$(BUILD)/%.o: %.c | $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c | $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/test-runner: $(LIBOBJ) $(TESTOBJ)
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion $(LDLIBS)

# main job: the game's balance at search level.  First the committed table
# (results/balance-search, read, not replayed), then a short live run of mcts:sim of this build
# (base rules, RUN_GAMES games a scenario: 1.2 CPU s a short game and 2.5 a long one measured,
# so ~1.5 minutes on 2 idle cores), each said for what it is.  The heuristic's table, whose long
# game is an artefact of that player, stays one command away.  A committed table that another
# build played (its report.md marked "As of build") is noted under it by `headline` itself.
RUN_GAMES ?= 50
run: waterloo
	@./waterloo headline --title "== COMMITTED: the game's balance at search level (results/balance-search: read, not replayed) ==" \
	  results/balance-search/short results/balance-search/long
	@echo
	@echo "== LIVE: mcts:sim of this build on this machine now, base rules, $(RUN_GAMES) games a scenario (~1.5 min on 2 cores) =="
	@nice -n 10 ./waterloo sim --scenario short,long --variant base --players mcts:sim --games $(RUN_GAMES) \
	  --out $(BUILD)/run-live --overwrite --quiet
	@./waterloo headline $(BUILD)/run-live
	@echo
	@echo "The live run plays the first $(RUN_GAMES) seeds of the committed table's seed (1815): a sample, its intervals wide."
	@echo
	@echo "== COMMITTED: balance across skill (results/balance-skill: the same level on both sides; read, not replayed) =="
	@awk -F' *[|] *' '/^## /{sc=$$0; sub(/^## /,"",sc)} /^[|] mcts:/{printf "  %-11s %-12s French %s over %s games\n", sc, $$2, $$5, $$3}' \
	  results/balance-skill/report.md
	@echo "  The tables above are mcts:sim's; where the rows here move with skill, the balance has not settled."
	@echo
	@echo "Full reports: results/balance-search/*/report.md, $(BUILD)/run-live/report.md."
	@echo "The heuristic's table (not the game's balance: its long game is an artefact of that player):"
	@echo "  ./waterloo sim --players heuristic"

test: $(BUILD)/test-runner waterloo
	$(BUILD)/test-runner --jobs 2

check: mpi waterloo
	tests/mpi_check.sh
	$(MAKE) func-length
	$(MAKE) rule-coverage
	$(MAKE) report-check
	$(MAKE) $(SUBJ) test
	$(MAKE) install-test
	$(MAKE) sanitize
	$(MAKE) web-test
	@echo "make check: all tests passed"

bench: waterloo
	./waterloo bench

# ---- install (issue 20 item 6): the program in PREFIX/bin, its data (scenarios, the web page,
# the rules reference the page shows) in PREFIX/share/waterloo, where the installed program finds
# them from its own location (engine/load.c, data_dir); the manual page in PREFIX/share/man/man1.
# DESTDIR stages the whole tree elsewhere (packaging, tests/install_check.sh).
PREFIX  ?= /usr/local
BINDIR  := $(PREFIX)/bin
DATADIR := $(PREFIX)/share/waterloo
MANDIR  := $(PREFIX)/share/man/man1
install: waterloo
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)/scenarios/variants \
	  $(DESTDIR)$(DATADIR)/web $(DESTDIR)$(DATADIR)/docs
	install -m 755 waterloo $(DESTDIR)$(BINDIR)/waterloo
	install -m 644 scenarios/*.ini scenarios/*.txt scenarios/README.md $(DESTDIR)$(DATADIR)/scenarios/
	install -m 644 scenarios/variants/*.ini $(DESTDIR)$(DATADIR)/scenarios/variants/
	install -m 644 web/* $(DESTDIR)$(DATADIR)/web/
	install -m 644 docs/RULES.md $(DESTDIR)$(DATADIR)/docs/
	install -m 644 docs/waterloo.1 $(DESTDIR)$(MANDIR)/waterloo.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/waterloo $(DESTDIR)$(MANDIR)/waterloo.1
	rm -rf $(DESTDIR)$(DATADIR)

# install into a temporary DESTDIR, play a game with the installed program from another folder,
# uninstall (a few seconds)
install-test: waterloo
	tests/install_check.sh

# ---- web front end (issue 9): `./waterloo serve` in a real browser (headless chromium driven
# through chromium-driver and python3-selenium, Debian's python) and its JSON API; about a
# minute.  Screenshots in build/web-test/.
WEBPKGS := chromium chromium-driver python3-selenium
web-test: waterloo
	@$(call install_pkgs,$(WEBPKGS))
	/usr/bin/python3 tests/web_test.py
	/usr/bin/python3 tests/web_replay_test.py
	/usr/bin/python3 tests/seats_test.py

# ---- robustness (issue 12): sanitizer builds, fuzzing, the invariant soak -------------------
# make sanitize   the test suite under ASan+UBSan (build-asan/), a short TSan run of a 2-thread
#                 sim and a 2-thread search (build-tsan/, clang + libomp), a short fuzz pass
# make fuzz       each libFuzzer target for FUZZ_SECONDS (default 120) from tests/fuzz/corpus
# make soak       SOAK_GAMES (default 100000) games, random and heuristic, both scenarios, with
#                 the debug build (gs_apply asserts legality and gs_check after every action)
SANPKGS     := clang libclang-rt-14-dev libomp-14-dev
SAN_STAMP   := $(BUILD)/.san-deps-ok
SAN_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN_CFLAGS := -O1 -g -fsanitize=thread
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS := save scen action protocol http
FUZZ_SECONDS ?= 120
FUZZ_SHORT  ?= 8
SOAK_GAMES  ?= 100000
# games a cell of the search players in the soak (their sampled worlds are checked too)
SOAK_SEARCH ?= 20
# the sanitizer, fuzz, debug and MPI builds are sub-makes: -j2 unless make already runs with -j
# (then they share its job slots)
SUBJ         = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)
export ASAN_OPTIONS := detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS := halt_on_error=1:print_stacktrace=1

.PHONY: sanitize asan-test tsan-test fuzz fuzz-short fuzz-build soak

$(SAN_STAMP): | $(STAMP)
	@$(call install_pkgs,$(SANPKGS))
	@touch $@

# the program in a build folder (sanitizer and debug variants)
$(BUILD)/waterloo: $(STAMP) $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

sanitize: asan-test tsan-test fuzz-short

asan-test: $(STAMP)
	$(MAKE) $(SUBJ) BUILD=build-asan CFLAGS="$(SAN_CFLAGS)" build-asan/test-runner build-asan/waterloo
	@mkdir -p build-asan/run && ln -sfn ../../scenarios build-asan/run/scenarios && ln -sfn ../waterloo build-asan/run/waterloo && ln -sfn ../../tests build-asan/run/tests && ln -sfn ../../docs build-asan/run/docs && ln -sfn ../../results build-asan/run/results && ln -sfn ../../tools build-asan/run/tools && mkdir -p build-asan/run/build
	cd build-asan/run && ../test-runner --jobs 2

tsan-test: $(SAN_STAMP)
	$(MAKE) $(SUBJ) BUILD=build-tsan CC=clang CFLAGS="$(TSAN_CFLAGS)" build-tsan/waterloo
	@rm -rf build-tsan/sim-out
	TSAN_OPTIONS=halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1 build-tsan/waterloo sim --scenario short --variant base \
	  --players heuristic,random --games 8 --threads 2 --quiet --out build-tsan/sim-out
	printf 'new short seed 3\ngenmove mcts:iters=3000,threads=2\nquit\n' | \
	  TSAN_OPTIONS=halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1 build-tsan/waterloo engine | grep -q '^= ' 
	@rm -rf build-tsan/skill-out
	TSAN_OPTIONS=halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1 build-tsan/waterloo skill --scenario short \
	  --levels 'heuristic@6' --threads 2 --out build-tsan/skill-out > /dev/null
	TSAN_OPTIONS=halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1 build-tsan/waterloo skill --scenario short \
	  --levels 'heuristic@12' --threads 2 --resume --out build-tsan/skill-out > /dev/null
	@echo "tsan: 2-thread sim, 2-thread search and 2-thread skill (journal, resume) clean"

fuzz-build: $(SAN_STAMP)
	$(MAKE) $(SUBJ) BUILD=build-fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS)" $(FUZZ_TARGETS:%=build-fuzz/fuzz-%)

build-fuzz/fuzz-%: tests/fuzz/fuzz_%.c $(LIBOBJ)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIBOBJ) $(LDLIBS)

# one target (fuzz-one-TARGET): first the seed corpus and the crash regressions
# (tests/fuzz/regress/TARGET/), then new inputs for FUZZ_TIME seconds; a crash stops make with the
# input saved in build-fuzz/.  `fuzz` and `fuzz-short` run the targets two at a time (each a
# single-threaded process on a core of its own: the same seconds each, half the wall time).
fuzz-one-%:
	@mkdir -p build-fuzz/corpus-$*
	@if [ -d tests/fuzz/regress/$* ]; then build-fuzz/fuzz-$* -runs=0 tests/fuzz/regress/$*/* \
	  2>build-fuzz/regress-$*.txt || { tail -40 build-fuzz/regress-$*.txt; \
	  echo "fuzz-$*: a crash regression fails again"; exit 1; }; fi
	@build-fuzz/fuzz-$* -max_total_time=$(FUZZ_TIME) -timeout=20 -rss_limit_mb=2048 -max_len=8192 \
	  -artifact_prefix=build-fuzz/crash-$*- -print_final_stats=1 \
	  build-fuzz/corpus-$* tests/fuzz/corpus/$* 2>build-fuzz/log-$*.txt \
	  || { tail -40 build-fuzz/log-$*.txt; echo "fuzz-$*: crash (input in build-fuzz/crash-$*-*)"; exit 1; }
	@echo "fuzz-$*: regressions $$(ls tests/fuzz/regress/$* 2>/dev/null | wc -l) pass;" \
	  $$(grep -E "stat::number_of_executed_units|stat::new_units_added" build-fuzz/log-$*.txt | tr '\n' ' ')

fuzz: fuzz-build
	@$(MAKE) --no-print-directory $(SUBJ) FUZZ_TIME=$(FUZZ_SECONDS) $(FUZZ_TARGETS:%=fuzz-one-%)

fuzz-short: fuzz-build
	@$(MAKE) --no-print-directory $(SUBJ) FUZZ_TIME=$(FUZZ_SHORT) $(FUZZ_TARGETS:%=fuzz-one-%)

soak: $(STAMP)
	$(MAKE) $(SUBJ) BUILD=build-debug CFLAGS="-O2 -g -DGS_DEBUG_CHECKS" build-debug/waterloo
	@rm -rf build-debug/soak; n=$$(( $(SOAK_GAMES) / 4 )); t0=$$(date +%s); \
	for sc in short long; do for p in random heuristic; do \
	  build-debug/waterloo sim --scenario $$sc --variant base --players $$p,$$p --games $$n --seed 12 \
	    --threads 2 --out build-debug/soak/$$sc-$$p > build-debug/soak-$$sc-$$p.log 2>&1 \
	    || { tail -5 build-debug/soak-$$sc-$$p.log; echo "soak: FAILED in $$sc $$p"; exit 1; }; \
	  grep 'games played' build-debug/soak-$$sc-$$p.log | sed "s/^sim:/soak: $$sc $$p:/"; \
	done; done; \
	build-debug/waterloo sim --scenario short,long --variant base,three-player --players mcts:sim,flat:sim \
	  --games $(SOAK_SEARCH) --seed 12 --threads 2 --out build-debug/soak/search \
	  > build-debug/soak-search.log 2>&1 || { tail -5 build-debug/soak-search.log; echo "soak: FAILED in the search games"; exit 1; }; \
	grep 'games played' build-debug/soak-search.log | sed "s/^sim:/soak: search:/"; \
	echo "soak: $(SOAK_GAMES) rule-player games and the search games in $$(( $$(date +%s) - t0 )) s wall, 0 violations"

# multi-machine build: Open MPI
mpi: $(STAMP)
	@dpkg -s libopenmpi-dev >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq $(MPIPKGS) >/dev/null; else echo "run: sudo apt-get install -y $(MPIPKGS)"; exit 1; fi; }
	$(MAKE) $(SUBJ) BUILD=build-mpi CC=mpicc CFLAGS="-O2 -g -DUSE_MPI" waterloo-mpi-bin
	cp waterloo-mpi-bin waterloo-mpi && rm -f waterloo-mpi-bin

waterloo-mpi-bin: $(STAMP) $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

rule-coverage:
	tools/rule-coverage

# every report committed under results/ names the build that made it (or is marked as of its
# build: tools/report-check --mark) and links only to files that exist (issue 24 item 7)
report-check: waterloo
	tools/report-check --waterloo ./waterloo

# no function of the code over 80 lines (issue 13): each one a named step (tools/func-length)
func-length:
	tools/func-length engine ai sim cli front

clean:
	rm -rf build build-mpi build-asan build-tsan build-fuzz build-debug waterloo waterloo-mpi

-include $(OBJ:.o=.d) $(TESTOBJ:.o=.d)

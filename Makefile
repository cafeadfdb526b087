# waterloo — build, set-up and checks.  `make run` and `make check` do all set-up on a fresh
# Debian machine: missing packages are installed with apt-get when run as root, otherwise the
# exact command to run is printed.
CC      ?= gcc
CFLAGS  ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fopenmp -MMD -MP
LDLIBS  += -linih -lcjson -lreadline -lm
# ---- web front end (issue 9): ./waterloo serve, libmicrohttpd
LDLIBS  += -lmicrohttpd -lpthread
BUILD   := build
SRC     := $(wildcard engine/*.c ai/*.c sim/*.c cli/*.c play/*.c)
OBJ     := $(SRC:%.c=$(BUILD)/%.o)
LIBSRC  := $(filter-out cli/main.c,$(SRC))
LIBOBJ  := $(LIBSRC:%.c=$(BUILD)/%.o)
TESTSRC := $(wildcard tests/*.c tests/rules/*.c)
TESTOBJ := $(TESTSRC:%.c=$(BUILD)/%.o)
PKGS    := build-essential libinih-dev libcjson-dev libreadline-dev libcriterion-dev pkg-config
PKGS    += libmicrohttpd-dev
MPIPKGS := libopenmpi-dev openmpi-bin
STAMP   := $(BUILD)/.deps-ok

.PHONY: all deps run check test bench mpi clean rule-coverage web-test

all: waterloo

# ---- set-up: install what is missing (root) or say exactly what to install
$(STAMP):
	@mkdir -p $(BUILD)
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else echo "missing packages; run: sudo apt-get install -y$$missing"; exit 1; fi; \
	fi
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

# main job: the balance table on the default scenarios (a whole AI-vs-AI game before the
# simulator existed)
run: waterloo
	./waterloo sim

test: $(BUILD)/test-runner waterloo
	$(BUILD)/test-runner --jobs 2

check: mpi waterloo
	tests/mpi_check.sh
	$(MAKE) test
	$(MAKE) web-test
	@echo "make check: all tests passed"

bench: waterloo
	./waterloo bench

# ---- web front end (issue 9): `./waterloo serve` in a real browser (headless chromium driven
# through chromium-driver and python3-selenium, Debian's python) and its JSON API; about a
# minute.  Screenshots in build/web-test/.
WEBPKGS := chromium chromium-driver python3-selenium
web-test: waterloo
	@missing=""; for p in $(WEBPKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else echo "missing packages; run: sudo apt-get install -y$$missing"; exit 1; fi; \
	fi
	/usr/bin/python3 tests/web_test.py

# multi-machine build: Open MPI
mpi: $(STAMP)
	@dpkg -s libopenmpi-dev >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq $(MPIPKGS) >/dev/null; else echo "run: sudo apt-get install -y $(MPIPKGS)"; exit 1; fi; }
	$(MAKE) BUILD=build-mpi CC=mpicc CFLAGS="-O2 -g -DUSE_MPI" waterloo-mpi-bin
	cp waterloo-mpi-bin waterloo-mpi && rm -f waterloo-mpi-bin

waterloo-mpi-bin: $(STAMP) $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

rule-coverage:
	tools/rule-coverage

clean:
	rm -rf build build-mpi waterloo waterloo-mpi

-include $(OBJ:.o=.d) $(TESTOBJ:.o=.d)

# gcperf: the targets a developer needs. `make test` is what CI runs.
GO ?= go
PKGS := ./...
BENCHTIME ?= 1s
COUNT ?= 6

.PHONY: all build test lint vet fmtcheck staticcheck fuzz bench run clean vegeta screenshots

all: build test

build:
	$(GO) build -o bin/gcperf ./cmd/gcperf

# vet, the gofmt check, staticcheck, then every test.
test: lint
	$(GO) test -count=1 $(PKGS)

lint: vet fmtcheck staticcheck

vet:
	$(GO) vet $(PKGS)

# staticcheck is a tool of the module (go.mod's tool line): no install step.
staticcheck:
	$(GO) tool staticcheck $(PKGS)

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# The performance targets, as Go benchmarks: compare ratios within one run,
# quote medians (benchstat reads this output).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(COUNT) $(PKGS)

# The main job: GCPerfP99's workload at its defaults.
run:
	$(GO) run ./cmd/gcperf -size 1024 -chunk 32 -runs 1000

clean:
	rm -rf bin

# The http operation against vegeta at the same rates (tools/vegetacmp, a
# module of its own so that vegeta stays out of go.mod): VEGETA_RATES per
# second, VEGETA_DURATION each. Its README has the table.
VEGETA_RATES ?= 1000,2000,5000,10000,15000,20000,30000
VEGETA_DURATION ?= 5s
vegeta:
	cd tools/vegetacmp && $(GO) run . -rates $(VEGETA_RATES) -duration $(VEGETA_DURATION)

# Every fuzz target, FUZZTIME each (make test runs their seed corpora).
# It goes on after a failure and lists the failing targets at the end; a
# failing input is kept under its package's testdata/fuzz/.
FUZZTIME ?= 30s
FUZZMINIMIZE ?= 5s
FUZZ_TARGETS := \
	./sweep:FuzzParseGOGC \
	./sweep:FuzzParseMemLimit \
	./sweep:FuzzParseGOMAXPROCS \
	./sweep:FuzzParseShard \
	./sweep:FuzzParseSLO \
	./sweep:FuzzReadSummary \
	./report:FuzzReadJSON \
	./report:FuzzReadSet \
	./report:FuzzReadBench \
	./report:FuzzReadSamples \
	./workload:FuzzParseGCStats \
	./workload:FuzzSpecParse \
	./workload/mixfile:FuzzParseMix \
	./workload/mixfile:FuzzParseMixFile \
	./env:FuzzParseCgroupValue \
	./env:FuzzParseCPUMax \
	./runstats:FuzzParseStat \
	./runstats:FuzzParseStatus \
	./internal/quote:FuzzClip \
	./bench:FuzzParseRate \
	./cmd/gcperf:FuzzParsePercent \
	./target/gctrace:FuzzParse \
	./target/gctrace:FuzzScan \
	./target/benchout:FuzzCollector \
	./load:FuzzParseHeader

fuzz:
	@failed=; for pt in $(FUZZ_TARGETS); do \
		pkg=$${pt%%:*}; target=$${pt##*:}; \
		echo "== $$pkg $$target ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) \
			-fuzzminimizetime $(FUZZMINIMIZE) $$pkg || failed="$$failed $$pkg:$$target"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failing:$$failed (inputs under each package's testdata/fuzz/)"; exit 1; fi

# Screenshots of a run's page and a sweep's in headless Chromium at 1280 and
# 800 px, kept in SHOTS to look at (the test skips when there is no chromium).
SHOTS ?= /tmp/gcperf-screenshots
screenshots:
	mkdir -p $(SHOTS)
	GCPERF_KEEP_SCREENSHOTS=$(SHOTS) go test -count=1 -run TestHTMLBrowser -v ./report/html/

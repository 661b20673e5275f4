# `make EXE=name`, as OpenBench and most engine testers build an engine: the release engine built
# with CMake (scripts/build is the same for people) and copied to $(EXE).
#   make [EXE=quadbit] [ARCH=native|x86-64-v3|x86-64-v2|generic|armv8|armv8.2-dotprod] [CXX=g++]
#        [BUILD=build-make]
# An Arm level asked for on another machine is cross-built with Debian's toolchain (scripts/cross).
EXE ?= quadbit
ARCH ?= native
BUILD ?= build-make
CROSS := $(and $(filter armv8%,$(ARCH)),$(filter-out aarch64,$(shell uname -m)))

.PHONY: all
all:
ifneq ($(CROSS),)
	bash scripts/cross aarch64 --arch $(ARCH)
	cp $(if $(filter armv8,$(ARCH)),build-aarch64,build-aarch64-$(ARCH))/quadbit $(EXE)
else
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DQUADBIT_ARCH=$(ARCH) -DCMAKE_CXX_COMPILER=$(CXX) >/dev/null
	cmake --build $(BUILD) -j $(shell nproc) --target quadbit
	cp $(BUILD)/quadbit $(EXE)
endif

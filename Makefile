# `make EXE=name`, as OpenBench and most engine testers build an engine: the release engine built
# with CMake (scripts/build is the same for people) and copied to $(EXE).
#   make [EXE=quadbit] [ARCH=native|x86-64-v3|x86-64-v2|generic] [CXX=g++] [BUILD=build-make]
EXE ?= quadbit
ARCH ?= native
BUILD ?= build-make

.PHONY: all
all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DQUADBIT_ARCH=$(ARCH) -DCMAKE_CXX_COMPILER=$(CXX) >/dev/null
	cmake --build $(BUILD) -j $(shell nproc) --target quadbit
	cp $(BUILD)/quadbit $(EXE)

// The Catch2 (v2) entry point for blockls_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

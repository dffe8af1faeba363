// GoogleTest entry point. SystemC owns main() and calls sc_main(); the bench
// is elaborated lazily by the first test that needs it (see bench.h), so
// listing the tests (gtest_discover_tests) never starts SystemC.
#include <gtest/gtest.h>

#include <systemc>

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

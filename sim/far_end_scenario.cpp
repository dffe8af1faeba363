// --scenario FILE: the far end is the simulated Linux PC (models/net/host)
// running the scenario's experiments; --net-results writes their results.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "far_end.h"
#include "messages.h"
#include "output_file.h"
#include "scenario.h"
#include "sim_host.h"
#include "units.h"

namespace l3vp::sim {

namespace {

class ScenarioHost : public FarEnd {
 public:
  CLI::Option* add_options(CLI::App& app) override {
    CLI::Option* sc = app.add_option(
        "--scenario", path_,
        "Network: the simulated Linux PC runs this scenario file (JSON) at the far end of the link");
    app.add_option("--net-results", results_path_, "Network: write the scenario results (JSON) to this file");
    return sc;
  }
  bool selected() const override { return !path_.empty(); }

  void configure(RunState& run) override {
    if (selected()) load(run);
    if (!results_path_.empty() && !scenario_) bad_input("--net-results: needs --scenario");
  }

  void add_fw_params(FwParams& params) const override {
    if (scenario_ && !scenario_->board_params.is_null())
      params.set_json(scenario_->board_params, "--scenario: .board.params");
  }

  void open(RunState& run) override {
    if (results_path_.empty()) return;
    run.created.note(results_path_);
    out_.open(results_path_);
    if (!out_) bad_input("--net-results: cannot open '" + results_path_ + "': " + std::strerror(errno));
  }

  void attach(RunState& run) override {
    Leon3mp& plat = *run.plat;
    pc_ = std::make_unique<host::SimHost>("pc", scenario_->host, scenario_->tcp);
    plat.link.attach(1, pc_.get());
    pc_->connect(&plat.link.port(1));
    runner_ = std::make_unique<host::ScenarioRunner>(*pc_, *scenario_);
  }
  void start() override { runner_->start(); }  // experiment times are relative to time 0

  void finish(RunState& run) override {
    results_ = runner_->results();
    out_ << results_.dump(2) << '\n';
    run.check_output("--net-results", results_path_, finish_output(out_));
  }
  void release_board() override {
    runner_.reset();
    pc_.reset();
  }

  const char* kind() const override { return "sim_host"; }
  host::SimHost* sim_host() override { return pc_.get(); }
  bool has_sim_host() const override { return true; }
  std::vector<std::string> vcd_comments() const override {
    return {"scenario: " + std::filesystem::path(path_).filename().string()};
  }
  bool experiments_done() const override { return runner_->done(); }
  const nlohmann::json* results() const override { return &results_; }

 private:
  void load(RunState& run) {
    try {
      scenario_ = host::load_scenario(path_);
    } catch (const std::exception& e) {
      bad_input("--scenario: " + std::string(e.what()));
    }
    // A scenario with a "link" section sets the link (replacing net.*
    // except net.mac); without one the configuration's link is used.
    if (scenario_->has_link) {
      run.cfg.put("net", EthLinkParams::rows(), scenario_->link);
      try {
        run.cfg.validate();
      } catch (const ConfigError& e) {
        bad_input("--scenario: link: " + std::string(e.what()));
      }
    }
    // Its duration is the time limit unless --max-time is given; reaching
    // it with every experiment done is success.
    const bool planned = !run.opt.max_time_set && scenario_->duration > sc_core::SC_ZERO_TIME;
    if (planned) run.opt.max_time = format_duration(scenario_->duration.value());  // ps
    run.scenario_end_planned = planned;
  }

  std::string path_, results_path_;
  std::optional<host::Scenario> scenario_;
  std::ofstream out_;
  std::unique_ptr<host::SimHost> pc_;
  std::unique_ptr<host::ScenarioRunner> runner_;
  nlohmann::json results_;
};

}  // namespace

std::unique_ptr<FarEnd> make_scenario_host() { return std::make_unique<ScenarioHost>(); }

}  // namespace l3vp::sim

// Package submission holds what every part of an official MLPerf Inference
// results tree shares: the rules of each round, the names the official
// checker expects, the tree's layout, and the files that describe the
// system and the accuracy. The jobs done on such a tree live in its
// subpackages, which import this one (never the other way round):
//
//   - filing files each finished LoadGen run into a results tree
//     DIR/<system>/<benchmark>/<Scenario>/{performance/run_1,accuracy,TEST0x}.
//   - compliance writes a compliance test's official audit.config for a run
//     and the verify_*.txt files of TEST06, TEST07 and TEST09 as the
//     reference scripts in compliance/ do.
//   - pack builds OUT/<division>/<submitter>/{src,systems,documentation,results}
//     from a results tree, truncating accuracy logs as
//     tools/submission/truncate_accuracy_log.py does.
//   - check replays the official checker's rules for a round on a packaged
//     tree, plus a few stricter ones, and says how to fix each problem.
//
// Here:
//
//   - rounds.go: the rounds (v6.0, v6.1: LookupRound, RoundNames,
//     DefaultRound), each benchmark's rules in a round (BenchmarkRules, from
//     the benchmark registry), the checker's canonical benchmark and scenario
//     names, the compliance test names and LookupCompliance.
//   - layout.go: the tree's layout: the names of a run's files, ScenarioDir,
//     LoggedScenario, PreviousPrefix.
//   - accuracytxt.go: accuracy.txt: IngestEvaluatorOutput turns an official
//     accuracy evaluator's output into it after checking the checker can read
//     it; BenchmarkRules.JudgeAccuracyTxt judges it as the checker does.
//   - systems.go: SystemTemplate and MeasurementsTemplate give starting
//     points for the systems JSON and measurements.json; ValidateSystem and
//     ValidateMeasurements apply the checker's field rules.
//
// The rules follow mlcommons/inference tools/submission/submission_checker
// (constants.py, loader.py, checks/*.py). Nothing here or in the
// subpackages logs or exits; errors say what is wrong and what to do.
package submission

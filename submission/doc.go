// Package submission turns mlperf-go runs into an official MLPerf Inference
// results directory and checks it before the official checker does.
//
// The pieces, in the order a submitter meets them:
//
//   - FileRun files each finished LoadGen run into a results tree
//     DIR/<system>/<benchmark>/<Scenario>/{performance/run_1,accuracy,TEST0x}
//     with its user.conf and a run-info JSON (record.Run), refusing to overwrite
//     an earlier run unless asked to move it aside.
//   - WriteAuditConfig puts the official audit.config of a compliance test in
//     LoadGen's working directory for one run and removes it afterwards.
//   - VerifyTEST06, VerifyTEST09 and RunTEST07 (or TEST07Command plus
//     WriteTEST07Verification) write the compliance verify_*.txt files exactly
//     as the reference scripts in compliance/ do.
//   - IngestEvaluatorOutput turns an official accuracy evaluator's output into
//     accuracy.txt after checking the checker can read it.
//   - SystemTemplate and MeasurementsTemplate give starting points for the
//     systems JSON and measurements.json; ValidateSystem and
//     ValidateMeasurements apply the checker's field rules.
//   - Package builds OUT/<division>/<submitter>/{src,systems,documentation,results},
//     truncating accuracy logs as tools/submission/truncate_accuracy_log.py does.
//   - Check replays the official checker's rules for the round (v6.0, v6.1)
//     on the packaged tree, plus a few stricter ones, and says how to fix each
//     problem.
//
// The rules follow mlcommons/inference tools/submission/submission_checker
// (constants.py, loader.py, checks/*.py), kept per round in rounds.go. Nothing
// here logs or exits; errors say what is wrong and what to do.
package submission

package main

import "github.com/urfave/cli/v2"

// historyFlags are the flags of the run history: where runs go without
// --output-dir, and leave to reuse a folder.
func historyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "runs-dir", Value: "runs", Category: catResults, Usage: "without --output-dir, each run goes to a new folder `DIR`/<benchmark>/<Scenario>-<mode>/<UTC time>/, " +
			"with a `latest` link beside it and DIR/index.html listing every run"},
		&cli.BoolFlag{Name: "overwrite", Category: catResults, Usage: "let --output-dir name a folder that already holds files (LoadGen's logs in it are replaced)"},
	}
}

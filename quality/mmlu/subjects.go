package mmlu

import (
	"slices"
	"strings"
)

// Category is one of the four groups MMLU's 57 subjects are reported in.
type Category string

// The categories, named as the original MMLU code names them
// (hendrycks/test categories.py; "other" stands for its "other (business,
// health, misc.)").
const (
	STEM           Category = "STEM"
	Humanities     Category = "humanities"
	SocialSciences Category = "social sciences"
	Other          Category = "other"
)

// Categories lists the categories in the order reports show them.
var Categories = []Category{STEM, Humanities, SocialSciences, Other}

// subjects maps each of MMLU's 57 subjects (as cais/mmlu's subject column
// spells them) to its category. Source: the original MMLU code,
// github.com/hendrycks/test categories.py at commit 4450500f (MIT licence,
// (c) 2020 Dan Hendrycks): each subject's subcategory ("math", "health",
// …) mapped through its categories table. testdata/categories_hendrycks.json
// is that mapping computed from the file itself (testdata/gen_golden.py),
// and TestSubjectsAreHendrycks holds this table to it.
//
// lm-evaluation-harness (tasks/mmlu/_generate_configs.py) groups the same
// way except for anatomy, which it counts as STEM; the original's "health"
// subcategory puts it in other (TestSubjectsVersusLMEval pins the one
// difference).
var subjects = map[string]Category{
	"abstract_algebra":                    STEM,
	"anatomy":                             Other,
	"astronomy":                           STEM,
	"business_ethics":                     Other,
	"clinical_knowledge":                  Other,
	"college_biology":                     STEM,
	"college_chemistry":                   STEM,
	"college_computer_science":            STEM,
	"college_mathematics":                 STEM,
	"college_medicine":                    Other,
	"college_physics":                     STEM,
	"computer_security":                   STEM,
	"conceptual_physics":                  STEM,
	"econometrics":                        SocialSciences,
	"electrical_engineering":              STEM,
	"elementary_mathematics":              STEM,
	"formal_logic":                        Humanities,
	"global_facts":                        Other,
	"high_school_biology":                 STEM,
	"high_school_chemistry":               STEM,
	"high_school_computer_science":        STEM,
	"high_school_european_history":        Humanities,
	"high_school_geography":               SocialSciences,
	"high_school_government_and_politics": SocialSciences,
	"high_school_macroeconomics":          SocialSciences,
	"high_school_mathematics":             STEM,
	"high_school_microeconomics":          SocialSciences,
	"high_school_physics":                 STEM,
	"high_school_psychology":              SocialSciences,
	"high_school_statistics":              STEM,
	"high_school_us_history":              Humanities,
	"high_school_world_history":           Humanities,
	"human_aging":                         Other,
	"human_sexuality":                     SocialSciences,
	"international_law":                   Humanities,
	"jurisprudence":                       Humanities,
	"logical_fallacies":                   Humanities,
	"machine_learning":                    STEM,
	"management":                          Other,
	"marketing":                           Other,
	"medical_genetics":                    Other,
	"miscellaneous":                       Other,
	"moral_disputes":                      Humanities,
	"moral_scenarios":                     Humanities,
	"nutrition":                           Other,
	"philosophy":                          Humanities,
	"prehistory":                          Humanities,
	"professional_accounting":             Other,
	"professional_law":                    Humanities,
	"professional_medicine":               Other,
	"professional_psychology":             SocialSciences,
	"public_relations":                    SocialSciences,
	"security_studies":                    SocialSciences,
	"sociology":                           SocialSciences,
	"us_foreign_policy":                   SocialSciences,
	"virology":                            Other,
	"world_religions":                     Humanities,
}

// CategoryOf returns the category of subject, false when subject is not
// one of MMLU's 57.
func CategoryOf(subject string) (Category, bool) {
	c, ok := subjects[subject]
	return c, ok
}

// Subjects lists MMLU's 57 subjects, sorted.
func Subjects() []string {
	out := make([]string, 0, len(subjects))
	for s := range subjects {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// subjectWords is a subject as prompts name it: its words separated by
// single spaces ("high_school_us_history" → "high school us history"), as
// lm-evaluation-harness's descriptions do.
func subjectWords(subject string) string {
	return strings.ReplaceAll(subject, "_", " ")
}

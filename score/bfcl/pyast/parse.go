package pyast

import (
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Parsed is the result of Parse.
type Parsed struct {
	// Body is the expression (ast.Expression.body).
	Body Node
}

// Parse parses src as ast.parse(src, mode="eval") does. Its error is a
// *pyval.Error: SyntaxError for what CPython's tokenizer or parser
// rejects, ValueError for a NUL character.
func Parse(src string) (Parsed, error) {
	toks, err := tokenize(src)
	if err != nil {
		return Parsed{}, err
	}
	p := &parser{toks: toks}
	body, err := p.expressions()
	if err != nil {
		return Parsed{}, err
	}
	for p.peek().kind == tNewline {
		p.pos++
	}
	if p.peek().kind != tEnd {
		return Parsed{}, syntaxErr("invalid syntax")
	}
	return Parsed{Body: body}, nil
}

// parser is a recursive-descent parser of the expression part of the
// Python 3.12 PEG grammar (Grammar/python.gram).
type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1]
}

// isOp reports whether the next token is operator op.
func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.kind == tKeyword && t.text == kw
}

func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expectOp(op string) error {
	if !p.acceptOp(op) {
		return syntaxErr("invalid syntax")
	}
	return nil
}

// expressions: expression (',' expression)* [','] — a Tuple when there is
// a comma.
func (p *parser) expressions() (Node, error) {
	first, err := p.expression()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		return first, nil
	}
	return p.tuple(first, func() bool { return !p.startsExpression() }, p.expression)
}

// startsExpression reports whether the next token can begin an
// expression (to tell a trailing comma from another element).
func (p *parser) startsExpression() bool {
	t := p.peek()
	switch t.kind {
	case tName, tNumber, tString:
		return true
	case tKeyword:
		switch t.text {
		case "True", "False", "None", "not", "lambda", "await":
			return true
		}
	case tOp:
		switch t.text {
		case "(", "[", "{", "-", "+", "~", "...", "*":
			return true
		}
	}
	return false
}

// expression: disjunction ['if' disjunction 'else' expression] | lambdef.
func (p *parser) expression() (Node, error) {
	if p.isKw("lambda") {
		return p.lambdef()
	}
	body, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if !p.acceptKw("if") {
		return body, nil
	}
	test, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if !p.acceptKw("else") {
		return nil, syntaxErr("expected 'else' after 'if' expression")
	}
	orelse, err := p.expression()
	if err != nil {
		return nil, err
	}
	return &IfExp{Test: test, Body: body, OrElse: orelse}, nil
}

// namedExpression: NAME ':=' expression | expression !':='.
func (p *parser) namedExpression() (Node, error) {
	if p.peek().kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == ":=" {
		name := p.peek().text
		p.pos += 2
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		return &NamedExpr{Target: &Name{ID: name}, Value: v}, nil
	}
	e, err := p.expression()
	if err != nil {
		return nil, err
	}
	if p.isOp(":=") {
		return nil, syntaxErr("cannot use assignment expressions with this target")
	}
	return e, nil
}

// starNamedExpression: '*' bitwise_or | named_expression.
func (p *parser) starNamedExpression() (Node, error) {
	if p.acceptOp("*") {
		v, err := p.bitwiseOr()
		if err != nil {
			return nil, err
		}
		return &Starred{Value: v}, nil
	}
	return p.namedExpression()
}

func (p *parser) disjunction() (Node, error) {
	return p.boolChain("or", p.conjunction)
}

func (p *parser) conjunction() (Node, error) {
	return p.boolChain("and", p.inversion)
}

func (p *parser) boolChain(op string, next func() (Node, error)) (Node, error) {
	first, err := next()
	if err != nil {
		return nil, err
	}
	if !p.isKw(op) {
		return first, nil
	}
	vals := []Node{first}
	for p.acceptKw(op) {
		v, err := next()
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return &BoolOp{Op: op, Values: vals}, nil
}

// inversion: 'not' inversion | comparison.
func (p *parser) inversion() (Node, error) {
	if p.acceptKw("not") {
		v, err := p.inversion()
		if err != nil {
			return nil, err
		}
		return &UnaryOp{Op: "not", Operand: v}, nil
	}
	return p.comparison()
}

// compareOp reads a comparison operator, or returns "".
func (p *parser) compareOp() string {
	t := p.peek()
	switch {
	case t.kind == tOp && (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
		p.pos++
		return t.text
	case t.kind == tKeyword && t.text == "in":
		p.pos++
		return "in"
	case t.kind == tKeyword && t.text == "not" && p.peekAt(1).kind == tKeyword && p.peekAt(1).text == "in":
		p.pos += 2
		return "not in"
	case t.kind == tKeyword && t.text == "is":
		p.pos++
		if p.acceptKw("not") {
			return "is not"
		}
		return "is"
	}
	return ""
}

func (p *parser) comparison() (Node, error) {
	left, err := p.bitwiseOr()
	if err != nil {
		return nil, err
	}
	c := &Compare{Left: left}
	for {
		op := p.compareOp()
		if op == "" {
			break
		}
		r, err := p.bitwiseOr()
		if err != nil {
			return nil, err
		}
		c.Ops = append(c.Ops, op)
		c.Comparators = append(c.Comparators, r)
	}
	if len(c.Ops) == 0 {
		return left, nil
	}
	return c, nil
}

// binary parses a left-associative chain of ops over next.
func (p *parser) binary(ops []string, next func() (Node, error)) (Node, error) {
	left, err := next()
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		for _, o := range ops {
			if p.isOp(o) {
				op = o
				break
			}
		}
		if op == "" {
			return left, nil
		}
		p.pos++
		right, err := next()
		if err != nil {
			return nil, err
		}
		left = &BinOp{Left: left, Op: op, Right: right}
	}
}

func (p *parser) bitwiseOr() (Node, error)  { return p.binary([]string{"|"}, p.bitwiseXor) }
func (p *parser) bitwiseXor() (Node, error) { return p.binary([]string{"^"}, p.bitwiseAnd) }
func (p *parser) bitwiseAnd() (Node, error) { return p.binary([]string{"&"}, p.shiftExpr) }
func (p *parser) shiftExpr() (Node, error)  { return p.binary([]string{"<<", ">>"}, p.sum) }
func (p *parser) sum() (Node, error)        { return p.binary([]string{"+", "-"}, p.term) }
func (p *parser) term() (Node, error) {
	return p.binary([]string{"*", "/", "//", "%", "@"}, p.factor)
}

// factor: ('+' | '-' | '~') factor | power.
func (p *parser) factor() (Node, error) {
	for _, op := range []string{"+", "-", "~"} {
		if p.acceptOp(op) {
			v, err := p.factor()
			if err != nil {
				return nil, err
			}
			return &UnaryOp{Op: op, Operand: v}, nil
		}
	}
	return p.power()
}

// power: await_primary ['**' factor].
func (p *parser) power() (Node, error) {
	base, err := p.awaitPrimary()
	if err != nil {
		return nil, err
	}
	if !p.acceptOp("**") {
		return base, nil
	}
	exp, err := p.factor()
	if err != nil {
		return nil, err
	}
	return &BinOp{Left: base, Op: "**", Right: exp}, nil
}

func (p *parser) awaitPrimary() (Node, error) {
	if p.acceptKw("await") {
		v, err := p.primary()
		if err != nil {
			return nil, err
		}
		return &Await{Value: v}, nil
	}
	return p.primary()
}

// primary: atom followed by attribute, call and subscript trailers.
func (p *parser) primary() (Node, error) {
	n, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.acceptOp("."):
			t := p.peek()
			if t.kind != tName {
				return nil, syntaxErr("invalid syntax")
			}
			p.pos++
			n = &Attribute{Value: n, Attr: t.text}
		case p.acceptOp("("):
			if n, err = p.call(n); err != nil {
				return nil, err
			}
		case p.acceptOp("["):
			s, err := p.slices()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			n = &Subscript{Value: n, Slice: s}
		default:
			return n, nil
		}
	}
}

// slices: slice !',' | ','.(slice | starred_expression)+ [','].
func (p *parser) slices() (Node, error) {
	first, err := p.sliceOrStarred()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		if _, ok := first.(*Starred); ok {
			return &Tuple{Elts: []Node{first}}, nil
		}
		return first, nil
	}
	return p.tuple(first, func() bool { return p.isOp("]") }, p.sliceOrStarred)
}

// sliceOrStarred: [expression] ':' [expression] [':' [expression]] |
// named_expression | '*' expression.
func (p *parser) sliceOrStarred() (Node, error) {
	if p.acceptOp("*") {
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		return &Starred{Value: v}, nil
	}
	var lower Node
	if !p.isOp(":") {
		e, err := p.namedExpression()
		if err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return e, nil
		}
		if _, ok := e.(*NamedExpr); ok {
			return nil, syntaxErr("invalid syntax")
		}
		lower = e
	}
	p.pos++ // ':'
	s := &Slice{Lower: lower}
	var err error
	if !p.isOp(":") && !p.isOp(",") && !p.isOp("]") {
		if s.Upper, err = p.expression(); err != nil {
			return nil, err
		}
	}
	if p.acceptOp(":") && !p.isOp(",") && !p.isOp("]") {
		if s.Step, err = p.expression(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// atom reads an atom.
func (p *parser) atom() (Node, error) {
	t := p.peek()
	switch t.kind {
	case tName:
		p.pos++
		return &Name{ID: t.text}, nil
	case tNumber:
		p.pos++
		return &Constant{Value: t.num}, nil
	case tString:
		return p.strings()
	case tKeyword:
		switch t.text {
		case "True", "False":
			p.pos++
			return &Constant{Value: pyval.Bool(t.text == "True")}, nil
		case "None":
			p.pos++
			return &Constant{Value: pyval.None}, nil
		}
	case tOp:
		switch t.text {
		case "(":
			p.pos++
			return p.parenthesized()
		case "[":
			p.pos++
			return p.listDisplay()
		case "{":
			p.pos++
			return p.braceDisplay()
		case "...":
			p.pos++
			return &Constant{Value: pyval.Ellipsis}, nil
		}
	}
	return nil, syntaxErr("invalid syntax")
}

// strings joins adjacent string literals: all bytes or none; an f-string
// among them makes a JoinedStr.
func (p *parser) strings() (Node, error) {
	first := p.peek().str
	var parts []Node
	anyF := false
	for p.peek().kind == tString {
		st := p.peek().str
		p.pos++
		if st.bytes != first.bytes {
			return nil, syntaxErr("cannot mix bytes and nonbytes literals")
		}
		if st.fstr {
			anyF = true
			for _, part := range st.fparts {
				if c, ok := part.(*Constant); ok {
					parts = appendConst(parts, c.Value.Str)
				} else {
					parts = append(parts, part)
				}
			}
			continue
		}
		if st.value != "" || len(parts) == 0 {
			parts = appendConst(parts, st.value)
		}
	}
	if anyF {
		var vals []Node
		for _, part := range parts {
			if c, ok := part.(*Constant); ok && c.Value.Str == "" {
				continue
			}
			vals = append(vals, part)
		}
		return &JoinedStr{Values: vals}, nil
	}
	text := ""
	if len(parts) > 0 {
		text = parts[0].(*Constant).Value.Str
	}
	kind := ""
	if first.u {
		kind = "u"
	}
	if first.bytes {
		return &Constant{Value: pyval.Bytes(text), Kind: kind}, nil
	}
	return &Constant{Value: pyval.Str(text), Kind: kind}, nil
}

// parenthesized reads what follows '(': a tuple, a group, a generator
// expression or a parenthesized yield.
func (p *parser) parenthesized() (Node, error) {
	if p.acceptOp(")") {
		return &Tuple{}, nil
	}
	if p.isKw("yield") {
		y, err := p.yieldExpr()
		if err != nil {
			return nil, err
		}
		return y, p.expectOp(")")
	}
	first, err := p.starNamedExpression()
	if err != nil {
		return nil, err
	}
	if p.isKw("for") || p.isKw("async") {
		if _, ok := first.(*Starred); ok {
			return nil, syntaxErr("iterable unpacking cannot be used in comprehension")
		}
		gens, err := p.forIfClauses()
		if err != nil {
			return nil, err
		}
		return &GeneratorExp{Elt: first, Generators: gens}, p.expectOp(")")
	}
	if p.acceptOp(")") {
		if _, ok := first.(*Starred); ok {
			return nil, syntaxErr("cannot use starred expression here")
		}
		return first, nil
	}
	if !p.isOp(",") {
		return nil, syntaxErr("invalid syntax")
	}
	elts, err := p.restOfElements(first, ")")
	if err != nil {
		return nil, err
	}
	return &Tuple{Elts: elts}, nil
}

// restOfElements reads ", elt, elt [,]" and the closing bracket after a
// display's first element.
func (p *parser) restOfElements(first Node, close string) ([]Node, error) {
	elts, err := p.commaList(first, func() bool { return p.isOp(close) }, p.starNamedExpression)
	if err != nil {
		return nil, err
	}
	return elts, p.expectOp(close)
}

// commaList reads (',' elem)* [','] after a list's first element: each
// comma is followed by another element unless ended says the list is over
// (a trailing comma).
func (p *parser) commaList(first Node, ended func() bool, elem func() (Node, error)) ([]Node, error) {
	elts := []Node{first}
	for p.acceptOp(",") {
		if ended() {
			break
		}
		e, err := elem()
		if err != nil {
			return nil, err
		}
		elts = append(elts, e)
	}
	return elts, nil
}

// tuple is commaList's elements as a Tuple.
func (p *parser) tuple(first Node, ended func() bool, elem func() (Node, error)) (Node, error) {
	elts, err := p.commaList(first, ended, elem)
	if err != nil {
		return nil, err
	}
	return &Tuple{Elts: elts}, nil
}

func (p *parser) yieldExpr() (Node, error) {
	p.pos++ // yield
	if p.acceptKw("from") {
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		return &YieldFrom{Value: v}, nil
	}
	if p.isOp(")") {
		return &Yield{}, nil
	}
	v, err := p.starExpressions()
	if err != nil {
		return nil, err
	}
	return &Yield{Value: v}, nil
}

// starExpressions: star_expression (',' star_expression)* [','].
func (p *parser) starExpressions() (Node, error) {
	first, err := p.starExpression()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		if _, ok := first.(*Starred); ok {
			return nil, syntaxErr("can't use starred expression here")
		}
		return first, nil
	}
	return p.tuple(first, func() bool { return !p.startsExpression() }, p.starExpression)
}

func (p *parser) starExpression() (Node, error) {
	if p.acceptOp("*") {
		v, err := p.bitwiseOr()
		if err != nil {
			return nil, err
		}
		return &Starred{Value: v}, nil
	}
	return p.expression()
}

// listDisplay reads a list or list comprehension after '['.
func (p *parser) listDisplay() (Node, error) {
	if p.acceptOp("]") {
		return &List{}, nil
	}
	first, err := p.starNamedExpression()
	if err != nil {
		return nil, err
	}
	if p.isKw("for") || p.isKw("async") {
		if _, ok := first.(*Starred); ok {
			return nil, syntaxErr("iterable unpacking cannot be used in comprehension")
		}
		gens, err := p.forIfClauses()
		if err != nil {
			return nil, err
		}
		return &ListComp{Elt: first, Generators: gens}, p.expectOp("]")
	}
	elts, err := p.restOfElements(first, "]")
	if err != nil {
		return nil, err
	}
	return &List{Elts: elts}, nil
}

// braceDisplay reads a dict, set or their comprehensions after '{'.
func (p *parser) braceDisplay() (Node, error) {
	if p.acceptOp("}") {
		return &Dict{}, nil
	}
	if p.acceptOp("**") {
		v, err := p.bitwiseOr()
		if err != nil {
			return nil, err
		}
		return p.dictRest(nil, v)
	}
	first, err := p.starNamedExpression()
	if err != nil {
		return nil, err
	}
	if p.acceptOp(":") {
		if _, ok := first.(*Starred); ok {
			return nil, syntaxErr("invalid syntax")
		}
		if _, ok := first.(*NamedExpr); ok {
			return nil, syntaxErr("invalid syntax")
		}
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		if p.isKw("for") || p.isKw("async") {
			gens, err := p.forIfClauses()
			if err != nil {
				return nil, err
			}
			return &DictComp{Key: first, Value: v, Generators: gens}, p.expectOp("}")
		}
		return p.dictRest(first, v)
	}
	if p.isKw("for") || p.isKw("async") {
		if _, ok := first.(*Starred); ok {
			return nil, syntaxErr("iterable unpacking cannot be used in comprehension")
		}
		gens, err := p.forIfClauses()
		if err != nil {
			return nil, err
		}
		return &SetComp{Elt: first, Generators: gens}, p.expectOp("}")
	}
	elts, err := p.restOfElements(first, "}")
	if err != nil {
		return nil, err
	}
	return &Set{Elts: elts}, nil
}

// dictRest reads the rest of a dict display after its first item (a nil
// key for **value).
func (p *parser) dictRest(k, v Node) (Node, error) {
	d := &Dict{Keys: []Node{k}, Values: []Node{v}}
	for p.acceptOp(",") {
		if p.isOp("}") {
			break
		}
		if p.acceptOp("**") {
			v, err := p.bitwiseOr()
			if err != nil {
				return nil, err
			}
			d.Keys, d.Values = append(d.Keys, nil), append(d.Values, v)
			continue
		}
		k, err := p.expression()
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(":"); err != nil {
			return nil, err
		}
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		d.Keys, d.Values = append(d.Keys, k), append(d.Values, v)
	}
	return d, p.expectOp("}")
}

// forIfClauses reads comprehension clauses.
func (p *parser) forIfClauses() ([]Comprehension, error) {
	var gens []Comprehension
	for p.isKw("for") || (p.isKw("async") && p.peekAt(1).kind == tKeyword && p.peekAt(1).text == "for") {
		c := Comprehension{IsAsync: p.acceptKw("async")}
		p.pos++ // for
		target, err := p.starTargets()
		if err != nil {
			return nil, err
		}
		c.Target = target
		if !p.acceptKw("in") {
			return nil, syntaxErr("invalid syntax")
		}
		if c.Iter, err = p.disjunction(); err != nil {
			return nil, err
		}
		for p.acceptKw("if") {
			cond, err := p.disjunction()
			if err != nil {
				return nil, err
			}
			c.Ifs = append(c.Ifs, cond)
		}
		gens = append(gens, c)
	}
	if len(gens) == 0 {
		return nil, syntaxErr("invalid syntax")
	}
	return gens, nil
}

// starTargets reads a comprehension's target: star_target (','
// star_target)* [','], each an assignable expression.
func (p *parser) starTargets() (Node, error) {
	first, err := p.starTarget()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		return first, nil
	}
	return p.tuple(first, func() bool { return p.isKw("in") }, p.starTarget)
}

func (p *parser) starTarget() (Node, error) {
	if p.acceptOp("*") {
		v, err := p.starTarget()
		if err != nil {
			return nil, err
		}
		return &Starred{Value: v}, nil
	}
	n, err := p.bitwiseOr()
	if err != nil {
		return nil, err
	}
	if !assignable(n) {
		return nil, syntaxErr("cannot assign to expression")
	}
	return n, nil
}

// assignable reports whether n can be an assignment target.
func assignable(n Node) bool {
	switch n := n.(type) {
	case *Name, *Attribute, *Subscript:
		return true
	case *Starred:
		return assignable(n.Value)
	case *Tuple:
		for _, e := range n.Elts {
			if !assignable(e) {
				return false
			}
		}
		return true
	case *List:
		for _, e := range n.Elts {
			if !assignable(e) {
				return false
			}
		}
		return true
	}
	return false
}

package pyast

// call reads a call's arguments after '(' (Grammar/python.gram's
// arguments rule with its invalid_arguments checks): positional
// arguments and *iterables first, then name=value and *iterables, then
// name=value and **mappings; a generator expression only as the sole
// argument.
func (p *parser) call(fn Node) (Node, error) {
	c := &Call{Func: fn}
	if p.acceptOp(")") {
		return c, nil
	}
	seenKw, seenDouble := false, false
	for {
		switch {
		case p.acceptOp("*"):
			if seenDouble {
				return nil, syntaxErr("iterable argument unpacking follows keyword argument unpacking")
			}
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, &Starred{Value: v})
		case p.acceptOp("**"):
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			c.Keywords = append(c.Keywords, Keyword{Value: v})
			seenDouble = true
		case p.peek().kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == "=":
			name := p.peek().text
			p.pos += 2
			if p.isOp(")") || p.isOp(",") {
				return nil, syntaxErr("expected argument value expression")
			}
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			c.Keywords = append(c.Keywords, Keyword{Arg: &name, Value: v})
			seenKw = true
		default:
			e, err := p.namedExpression()
			if err != nil {
				return nil, err
			}
			if p.isKw("for") || p.isKw("async") {
				if len(c.Args) > 0 || len(c.Keywords) > 0 {
					return nil, syntaxErr("Generator expression must be parenthesized")
				}
				gens, err := p.forIfClauses()
				if err != nil {
					return nil, err
				}
				if !p.acceptOp(")") {
					return nil, syntaxErr("Generator expression must be parenthesized")
				}
				c.Args = []Node{&GeneratorExp{Elt: e, Generators: gens}}
				return c, nil
			}
			if p.isOp("=") {
				return nil, syntaxErr("expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			if seenDouble {
				return nil, syntaxErr("positional argument follows keyword argument unpacking")
			}
			if seenKw {
				return nil, syntaxErr("positional argument follows keyword argument")
			}
			c.Args = append(c.Args, e)
		}
		if p.acceptOp(",") {
			if p.acceptOp(")") {
				return c, nil
			}
			continue
		}
		return c, p.expectOp(")")
	}
}

// lambdef reads "lambda [parameters]: expression".
func (p *parser) lambdef() (Node, error) {
	p.pos++ // lambda
	args, err := p.lambdaParams()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	body, err := p.expression()
	if err != nil {
		return nil, err
	}
	return &Lambda{Args: args, Body: body}, nil
}

// lambdaParams reads a lambda's parameter list up to its ':' with the
// grammar's ordering rules (a "/" after one parameter at least, no
// parameter without a default after one with, named parameters after a
// bare "*", "**name" last).
func (p *parser) lambdaParams() (*Arguments, error) {
	a := &Arguments{}
	star, slash, defaulted := false, false, false
	for !p.isOp(":") {
		switch {
		case p.acceptOp("/"):
			if slash || star || len(a.Args) == 0 {
				return nil, syntaxErr("invalid syntax")
			}
			slash = true
			a.PosOnly, a.Args = a.Args, nil
		case p.acceptOp("**"):
			t := p.peek()
			if t.kind != tName {
				return nil, syntaxErr("invalid syntax")
			}
			p.pos++
			name := t.text
			a.Kwarg = &name
			p.acceptOp(",")
			if !p.isOp(":") {
				return nil, syntaxErr("arguments cannot follow var-keyword argument")
			}
			continue
		case p.acceptOp("*"):
			if star {
				return nil, syntaxErr("* argument may appear only once")
			}
			star = true
			if t := p.peek(); t.kind == tName {
				p.pos++
				name := t.text
				a.Vararg = &name
			} else {
				a.bareStarForKwonly = true
			}
		case p.peek().kind == tName:
			name := p.peek().text
			p.pos++
			var def Node
			if p.acceptOp("=") {
				d, err := p.expression()
				if err != nil {
					return nil, err
				}
				def = d
			}
			if star {
				a.KwOnly = append(a.KwOnly, name)
				a.KwDefaults = append(a.KwDefaults, def)
				break
			}
			if def == nil && defaulted {
				return nil, syntaxErr("parameter without a default follows parameter with a default")
			}
			if def != nil {
				defaulted = true
				a.Defaults = append(a.Defaults, def)
			}
			a.Args = append(a.Args, name)
		default:
			return nil, syntaxErr("invalid syntax")
		}
		if !p.acceptOp(",") && !p.isOp(":") {
			return nil, syntaxErr("invalid syntax")
		}
	}
	if a.bareStarForKwonly && len(a.KwOnly) == 0 {
		return nil, syntaxErr("named arguments must follow bare *")
	}
	return a, nil
}

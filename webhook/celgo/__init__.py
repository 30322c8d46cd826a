"""A port of the cel-go (v0.17) compiler front end Kubernetes 1.30 validates DRA selectors with.

No Python CEL library type-checks the way cel-go does (see `webhook.cel` for the comparison), so
this package ports the parts of cel-go that decide whether a selector compiles and what cel-go
says when it does not: the ANTLR grammar (`gen/`, generated from cel-go's own `CEL.g4`), the parse
tree to expression tree builder with macros (`parser`), the type system and unification
(`types`), the checker (`checker`), the AST validators (`validators`) and the declarations of the
Kubernetes selector environments (`decls`). Nothing here evaluates an expression.
"""

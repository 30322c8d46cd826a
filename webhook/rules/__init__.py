"""The rules: pure, synchronous functions from decoded objects to field errors, and no I/O.

The shared building blocks (`meta`, `names`, `nodeselector`, `lists`, `values`, `equality`) take the
`release.Release` they serve where a release changed them; each apiVersion has a package of its own
(`v1alpha2`, ...) with one module per kind and a `kinds.KINDS` tuple of them. This package imports
none of them: `webhook.registry` binds every version package's kinds to its release.
"""

"""The generated files of manifests/: one kustomize Component per era (`manifests/eras/<era>/`) that
gives the webhook configuration the rules of that era's clusters; `python -m webhook.manifests`
(`make manifests`) writes them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import yaml

from webhook.eras import ERAS, Era, era_kinds
from webhook.manifests.objects import APP_NAME
from webhook.manifests.rules import era_rules
from webhook.registry import REGISTRY, KindRegistry

ERAS_DIRECTORY = "eras"
COMPONENT_FILE = "kustomization.yaml"
DEFAULT_MANIFESTS_DIRECTORY = Path(__file__).resolve().parent.parent.parent / "manifests"


class _Literal(str):
    """A string YAML prints as a literal block (``|-``), as a kustomize patch is written by hand."""


class _ComponentDumper(yaml.SafeDumper):
    pass


def _literal_block(dumper: yaml.SafeDumper, text: _Literal) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(text), style="|")


_ComponentDumper.add_representer(_Literal, _literal_block)


def era_component(era: Era, registry: KindRegistry = REGISTRY) -> str:
    """`manifests/eras/<era>/kustomization.yaml`: a kustomize Component that gives the webhook
    configuration of manifests/ (base or any overlay) the rules of `era`."""
    rules = era_rules(era, registry)
    judged = sorted(
        {
            (f"{kind.gvk.group}/{kind.gvk.version}", registry.release_of(kind.gvk).version)
            for kind in era_kinds(era, registry)
        }
    )
    what = "; ".join(f"{api_version} judged as Kubernetes {release}" for api_version, release in judged)
    patch = [{"op": "replace", "path": "/webhooks/0/rules", "value": rules}]
    component = {
        "apiVersion": "kustomize.config.k8s.io/v1alpha1",
        "kind": "Component",
        "patches": [
            {
                "target": {"kind": "ValidatingWebhookConfiguration", "name": APP_NAME},
                "patch": _Literal(yaml.safe_dump(patch, sort_keys=False, default_flow_style=False)),
            }
        ],
    }
    header = [
        f"# The webhook configuration for clusters of {era}: {what or 'no kind this build judges'}.",
        "# Use it in a kustomization of manifests/base or an overlay (docs/deploy.md):",
        f"#   components: [<path to manifests>/eras/{era.name}]",
        "# Generated from webhook.registry and webhook/eras.py by `make manifests`; do not edit:",
        "# tests/test_manifests.py fails when it differs from what they render.",
    ]
    body = yaml.dump(component, Dumper=_ComponentDumper, sort_keys=False, default_flow_style=False)
    return "\n".join(header) + "\n" + body


def generated_files(registry: KindRegistry = REGISTRY) -> dict[str, str]:
    """Every generated file of manifests/, by its path below it."""
    return {f"{ERAS_DIRECTORY}/{era.name}/{COMPONENT_FILE}": era_component(era, registry) for era in ERAS}


def write_generated_files(directory: Path, registry: KindRegistry = REGISTRY) -> list[Path]:
    """Write the generated files under `directory` (manifests/); the paths of those that changed."""
    changed = []
    for relative, text in generated_files(registry).items():
        path = directory / relative
        if not path.is_file() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m webhook.manifests [DIR]`: (re)write the generated files of manifests/."""
    parser = argparse.ArgumentParser(prog="python -m webhook.manifests", description=main.__doc__)
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_MANIFESTS_DIRECTORY)
    args = parser.parse_args(argv)
    for path in write_generated_files(args.directory):
        print(f"wrote {path}", file=sys.stderr)
    return 0

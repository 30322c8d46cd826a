"""`python -m webhook.manifests [DIR]`: (re)write the generated files of manifests/."""

from webhook.manifests.components import main

raise SystemExit(main())

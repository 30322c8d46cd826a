# syntax=docker/dockerfile:1
# The dra-webhook image: the project pip-installed into a virtual environment (without pip) on
# python:3.11-slim, run as the unprivileged user 65532 (the uid the manifests require). Sources and
# the build stay in the build stage; tests never enter the build context.
#
#   docker build -t dra-webhook:0.1.0 .
#
# The tag follows the version in pyproject.toml; manifests/ and webhook/manifests/objects.py name the same
# tag (tests/test_manifests.py keeps them in step).
ARG PYTHON_IMAGE=python:3.11-slim

# --- build: `pip install .` into a fresh virtual environment, as a user installs it ---
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
# A C compiler for mypyc, which compiles the hot modules while pip builds the package (setup.py);
# the runtime stage gets the installed result, not the compiler.
RUN apt-get update \
 && apt-get install --yes --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Only what the package is built from (.dockerignore keeps everything else out of the context).
COPY pyproject.toml setup.py MANIFEST.in README.md requirements.lock ./
COPY webhook/ webhook/
COPY schemas/ schemas/
# The runtime dependencies first, from requirements.lock: exact versions, each file checked against
# its sha256 (SECURITY.md). Then the project as a user installs it, `pip install .`, which finds its
# dependencies satisfied. The last line fails the build if the rules did not come out compiled (-I:
# not the webhook/ of /src, which the working directory would put first on sys.path).
RUN python -m venv --without-pip /opt/dra-webhook \
 && python -m pip --python /opt/dra-webhook/bin/python install --require-hashes -r requirements.lock \
 && python -m pip --python /opt/dra-webhook/bin/python install . \
 && /opt/dra-webhook/bin/dra-webhook --version \
 && /opt/dra-webhook/bin/python -I -c 'import sys, webhook; sys.exit(not webhook.BUILD.compiled)'

# --- runtime: the venv alone, on the same base image so its interpreter links still resolve ---
FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="dra-webhook" \
      org.opencontainers.image.description="Validating admission webhook for resource.k8s.io/v1alpha2, exact to kube-apiserver 1.30" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="0.1.0"
ENV PATH=/opt/dra-webhook/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
COPY --from=build /opt/dra-webhook /opt/dra-webhook
# Numeric, so Kubernetes' runAsNonRoot can verify it without an /etc/passwd entry.
USER 65532:65532
EXPOSE 8443 9090
ENTRYPOINT ["dra-webhook"]
# The Deployment passes the same arguments; the certificate Secret is mounted at /certs.
CMD ["serve", "--host", "0.0.0.0", "--port", "8443", "--cert-dir", "/certs", "--no-generate-certs", \
     "--workers", "2", "--metrics-address", "0.0.0.0:9090"]

# syntax=docker/dockerfile:1
# The dra-webhook image: the installed wheel in a virtual environment (without pip) on
# python:3.11-slim, run as the unprivileged user 65532 (the uid the manifests require). Sources,
# tests and the wheel build stay in the build stage.
#
#   docker build -t dra-webhook:0.1.0 .
#
# The tag follows the version in pyproject.toml; manifests/ and webhook/manifests.py name the same
# tag (tests/test_manifests.py keeps them in step).
ARG PYTHON_IMAGE=python:3.11-slim

# --- build: turn the project into a wheel and install it, with its dependencies, into a venv ---
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
# A C compiler for mypyc, which compiles the hot modules while the wheel is built (setup.py); the
# runtime stage gets the compiled wheel, not the compiler.
RUN apt-get update \
 && apt-get install --yes --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Only what the wheel is built from (.dockerignore keeps everything else out of the context).
COPY pyproject.toml setup.py README.md requirements.lock ./
COPY webhook/ webhook/
COPY schemas/ schemas/
# The runtime dependencies come from requirements.lock: exact versions, each file checked against
# its sha256 (SECURITY.md); the project's own wheel is then added without resolving anything. The
# import at the end fails the build if the wheel's rules did not come out compiled.
RUN python -m pip wheel --no-deps --wheel-dir /wheels . \
 && python -m venv --without-pip /opt/dra-webhook \
 && python -m pip --python /opt/dra-webhook/bin/python install --require-hashes -r requirements.lock \
 && python -m pip --python /opt/dra-webhook/bin/python install --no-deps /wheels/*.whl \
 && /opt/dra-webhook/bin/python -c 'import sys, webhook; print(webhook.BUILD.describe()); sys.exit(not webhook.BUILD.compiled)'

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

"""The generalisation protocol: plain-language tasks on StreamTV and two third-party web apps, judged by
the end state each app reports itself.

``devicepilot eval`` runs it (see :mod:`evals.cli`); the corpus is in ``evals/corpus/*.yaml``.
"""

from django.apps import AppConfig


class StoreConfig(AppConfig):
    name = "evals.apps.django_site.store"
    label = "store"
    verbose_name = "Store"

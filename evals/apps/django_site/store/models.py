"""Two models for the admin to list, filter, search, add, change and delete."""
from __future__ import annotations

from django.db import models


class Customer(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField(blank=True)
    city = models.CharField(max_length=60, blank=True)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Product(models.Model):
    CATEGORIES = [("kitchen", "Kitchen"), ("garden", "Garden"), ("office", "Office"), ("toys", "Toys")]

    name = models.CharField(max_length=100)
    category = models.CharField(max_length=20, choices=CATEGORIES, default="kitchen")
    price = models.DecimalField(max_digits=8, decimal_places=2)
    in_stock = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

from django.contrib import admin

from .models import Customer, Product


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ("name", "email", "city", "active")
    list_filter = ("active", "city")
    search_fields = ("name", "email", "city")


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ("name", "category", "price", "in_stock")
    list_filter = ("category", "in_stock")
    search_fields = ("name",)

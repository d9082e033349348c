from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

admin.site.site_header = "Corner Shop administration"
admin.site.site_title = "Corner Shop admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
]

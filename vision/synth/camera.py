"""The camera and the light: a tilted pinhole view of the table plane with radial distortion,
then colour cast, vignetting, spotlight, hard shadows, noise, blur and JPEG."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.polygons import apply_homography, distort_points


@dataclass
class Camera:
    """Maps canvas (table-plane) pixels to output pixels."""

    size: tuple[int, int]  # output (w, h)
    h_plane: np.ndarray  # 3x3, plane coordinates (canvas minus `origin`) -> undistorted output
    origin: np.ndarray  # canvas pixel of plane (0, 0)
    k: float  # radial distortion
    canvas_size: tuple[int, int]
    nadir: np.ndarray  # canvas point straight below the camera
    height: float  # camera height in canvas pixels

    @property
    def dist_scale(self) -> float:
        w, h = self.size
        return 0.5 * math.hypot(w, h)

    def project(self, pts) -> np.ndarray:
        p = apply_homography(self.h_plane, np.asarray(pts, dtype=np.float64).reshape(-1, 2) - self.origin)
        if self.k:
            p = distort_points(p, self.k, (self.size[0] / 2, self.size[1] / 2), self.dist_scale)
        return p

    def unproject(self, pts) -> np.ndarray:
        """Canvas pixels of output pixels (`project` inverted, the distortion to first order)."""
        pd = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        if self.k:
            c = np.array([self.size[0] / 2, self.size[1] / 2])
            q = (pd - c) / self.dist_scale
            pd = c + (pd - c) * (1 + self.k * (q**2).sum(axis=1, keepdims=True))
        return apply_homography(np.linalg.inv(self.h_plane), pd) + self.origin

    def render(self, canvas: np.ndarray) -> np.ndarray:
        w, h = self.size
        step = 8
        # sample the map at cell centres so that resizing by `step` lands exactly on pixels
        nx, ny = w // step + 2, h // step + 2
        gx, gy = np.meshgrid((np.arange(nx) + 0.5) * step - 0.5, (np.arange(ny) + 0.5) * step - 0.5)
        src = self.unproject(np.stack([gx.ravel(), gy.ravel()], axis=1))
        mx = src[:, 0].reshape(gx.shape).astype(np.float32)
        my = src[:, 1].reshape(gx.shape).astype(np.float32)
        mx = cv2.resize(mx, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)[:h, :w]
        my = cv2.resize(my, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)[:h, :w]
        return cv2.remap(canvas, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def make_camera(rng: np.random.Generator, size: tuple[int, int], max_tilt_deg: float = 30.0,
                yaw: float | None = None, distortion: float | None = None) -> Camera:
    """A camera over the plane's origin: yaw any, tilt up to `max_tilt_deg`, canvas px ~ output px
    at the image centre. The canvas is sized to cover everything the camera sees."""
    w, h = size
    f = w * float(rng.uniform(0.75, 1.4))
    tilt = math.radians(float(rng.uniform(0, max_tilt_deg)) * (1.0 if rng.random() < 0.75 else 0.3))
    if yaw is None:
        yaw = float(rng.uniform(0, 2 * math.pi)) if rng.random() < 0.5 else float(rng.integers(4)) * math.pi / 2 + float(rng.normal(0, 0.05))
    tilt_dir = float(rng.uniform(0, 2 * math.pi))
    height = f  # so one plane px ~ one output px at the centre
    # world: x, y on the table, z away from the camera (into the table)
    cz, sz = math.cos(yaw), math.sin(yaw)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    ct, st = math.cos(tilt), math.sin(tilt)
    ca, sa = math.cos(tilt_dir), math.sin(tilt_dir)
    # rotate about an axis in the image plane pointing along tilt_dir
    axis = np.array([ca, sa, 0.0])
    kx = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rt = np.eye(3) * ct + st * kx + (1 - ct) * np.outer(axis, axis)
    r = rt @ rz  # world -> camera
    cam_center = -height * (r.T @ np.array([0.0, 0.0, 1.0]))
    kmat = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t = -r @ cam_center
    hp = kmat @ np.column_stack([r[:, 0], r[:, 1], t])
    hp = hp / hp[2, 2]
    k = float(rng.uniform(-0.12, 0.12)) if distortion is None else distortion
    # canvas: preimage of the (slightly padded) output frame
    pad = 0.08
    frame = np.array([[-pad * w, -pad * h], [w * (1 + pad), -pad * h], [w * (1 + pad), h * (1 + pad)], [-pad * w, h * (1 + pad)]])
    if k:
        scale = 0.5 * math.hypot(w, h)
        c = np.array([w / 2, h / 2])
        q = (frame - c) / scale
        frame = c + (frame - c) * (1 + k * (q**2).sum(axis=1, keepdims=True))
    pre = apply_homography(np.linalg.inv(hp), frame)
    lo = np.floor(pre.min(axis=0)) - 4
    hi = np.ceil(pre.max(axis=0)) + 4
    origin = -lo
    canvas_size = (int(hi[0] - lo[0]), int(hi[1] - lo[1]))
    nadir = origin + cam_center[:2]
    return Camera(size, hp, origin, k, canvas_size, nadir, height)


_NOISE: dict[str, np.ndarray] = {}


def _noise_crop(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Unit sensor noise (h, w, 3) cut at a random place from a fixed texture: generating fresh
    normal noise per frame costs more than the rest of the sensor model."""
    tex = _NOISE.get("tex")
    if tex is None:
        tex = np.random.default_rng(20261130).standard_normal((1024, 1024, 3), dtype=np.float32)
        _NOISE["tex"] = tex
    n = tex.shape[0]
    rows = np.arange(h) + int(rng.integers(0, n))
    cols = np.arange(w) + int(rng.integers(0, n))
    if rng.random() < 0.5:
        rows = rows[::-1]
    crop = np.take(np.take(tex, rows, axis=0, mode="wrap"), cols, axis=1, mode="wrap")
    return np.ascontiguousarray(crop)


@dataclass
class Light:
    """One lighting set-up: a low-resolution gain field per channel, sensor noise and blur."""

    gain: np.ndarray  # (h/8, w/8, 3) float32
    sigma: float
    blur: str  # none | gauss | motion
    blur_sigma: float = 0.0
    kernel: np.ndarray | None = None


def random_light(rng: np.random.Generator, size: tuple[int, int], strength: float = 1.0) -> Light:
    """Colour cast (warm/cool), vignetting, spotlight and a hard shadow edge; noise and blur."""
    w, h = size
    sh, sw = h // 8 + 1, w // 8 + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx /= sw
    yy /= sh
    gain = np.ones((sh, sw), np.float32) * float(rng.uniform(0.75, 1.2))
    if rng.random() < 0.7:  # vignetting
        r2 = (xx - 0.5) ** 2 + (yy - 0.5) ** 2
        gain *= 1 - float(rng.uniform(0.1, 0.6)) * r2 * 2
    if rng.random() < 0.4:  # spotlight
        cx, cy = rng.uniform(0.1, 0.9, 2)
        rad = float(rng.uniform(0.2, 0.6))
        gain *= 0.7 + 0.5 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2))
    if rng.random() < 0.25:  # a hard shadow edge (a lamp arm, a person)
        a = float(rng.uniform(0, 2 * math.pi))
        off = float(rng.uniform(-0.3, 0.3))
        side = (xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a) - off
        gain *= np.where(side > 0, float(rng.uniform(0.45, 0.8)), 1.0).astype(np.float32)
    temp = float(rng.normal(0, 0.08))  # warm (>0) or cool (<0)
    cast = (1 - temp, 1 + float(rng.normal(0, 0.02)), 1 + temp)
    light = Light(cv2.merge([gain * c for c in cast]), float(rng.uniform(0.5, 7.0)) * strength, "none")
    roll = rng.random()
    if roll < 0.25:
        light.blur, light.blur_sigma = "gauss", float(rng.uniform(0.4, 1.4))
    elif roll < 0.35:  # motion blur
        n = int(rng.integers(3, 8))
        light.blur, light.kernel = "motion", motion_kernel(n, float(rng.uniform(0, 180)))
    return light


def motion_kernel(n: int, degrees: float) -> np.ndarray:
    """A straight motion-blur kernel n px long at `degrees`, summing to 1."""
    kern = np.zeros((n, n), np.float32)
    kern[n // 2, :] = 1.0 / n
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), degrees, 1.0)
    kern = cv2.warpAffine(kern, rot, (n, n))
    return kern / max(float(kern.sum()), 1e-6)


def apply_light(img: np.ndarray, light: Light, rng: np.random.Generator, flicker: float = 1.0) -> np.ndarray:
    h, w = img.shape[:2]
    gain3 = cv2.resize(light.gain * flicker, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(img, gain3, dtype=cv2.CV_32F)
    if light.sigma > 0.5:
        out = cv2.scaleAdd(_noise_crop(rng, h, w), light.sigma, out)
    out = cv2.convertScaleAbs(out)
    if light.blur == "gauss":
        out = cv2.GaussianBlur(out, (0, 0), light.blur_sigma)
    elif light.blur == "motion":
        out = cv2.filter2D(out, -1, light.kernel)
    return out


def light_and_sensor(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    return apply_light(img, random_light(rng, (img.shape[1], img.shape[0]), strength), rng)


def encode_jpeg(img: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG; check the OpenCV build")
    return buf.tobytes()

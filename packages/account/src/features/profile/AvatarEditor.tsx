import { useEffect, useId, useRef, useState } from 'react';
import { useAccount, useUser } from '../../app/account';
import { Notice } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { uploadAvatar } from './upload';

/** The types the cloud accepts (it checks the content again). */
const TYPES = ['image/jpeg', 'image/png', 'image/gif'];
const MAX_BYTES = 5 * 1024 * 1024;
const OUTPUT = 512;
const PREVIEW = 240;

interface Crop {
  zoom: number;
  /** Where the square sits along the image's longer side, 0–100. */
  x: number;
  y: number;
}

/** Draws the chosen square of `image` onto `canvas` at `size` pixels a side. */
function drawCrop(canvas: HTMLCanvasElement, image: HTMLImageElement, crop: Crop, size: number) {
  canvas.width = size;
  canvas.height = size;
  const side = Math.min(image.naturalWidth, image.naturalHeight) / crop.zoom;
  const sx = ((image.naturalWidth - side) * crop.x) / 100;
  const sy = ((image.naturalHeight - side) * crop.y) / 100;
  canvas.getContext('2d')?.drawImage(image, sx, sy, side, side, 0, 0, size, size);
}

function Slider({
  label,
  value,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <div className="slider">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}

/** The profile picture: pick a jpg, png or gif, crop a square, upload it with a progress bar. */
export function AvatarEditor() {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const inputId = useId();
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 50, y: 50 });
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const preview = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (image && preview.current) drawCrop(preview.current, image, crop, PREVIEW);
  }, [image, crop]);

  const pick = (file: File | undefined) => {
    setMessage(null);
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      setMessage({ kind: 'error', text: 'Choose a jpg, png or gif image.' });
      return;
    }
    if (file.size > MAX_BYTES) {
      setMessage({ kind: 'error', text: 'Choose an image of at most 5 MB.' });
      return;
    }
    const url = URL.createObjectURL(file);
    const loaded = new Image();
    loaded.onload = () => {
      setCrop({ zoom: 1, x: 50, y: 50 });
      setImage(loaded);
    };
    loaded.onerror = () => setMessage({ kind: 'error', text: 'This file is not an image we can read.' });
    loaded.src = url;
  };

  const save = async () => {
    if (!image) return;
    const canvas = document.createElement('canvas');
    drawCrop(canvas, image, crop, OUTPUT);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) return;
    setProgress(0);
    try {
      await uploadAvatar(cloud, user._id, blob, setProgress);
      setProgress(1);
      setImage(null);
      setMessage({ kind: 'success', text: 'Your picture is saved.' });
      await reloadUser();
    } catch (error) {
      setMessage({ kind: 'error', text: messageOf(error) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <section className="card" aria-labelledby="avatar-heading">
      <h2 id="avatar-heading">Profile picture</h2>
      <div className="avatar-row">
        {user.avatar ? (
          <img className="avatar" src={user.avatar.medium} alt="You, as others see you" width={96} height={96} />
        ) : (
          <span className="avatar avatar--initials" aria-hidden="true">
            {(user.firstname[0] ?? user.email[0] ?? '?').toUpperCase()}
          </span>
        )}
        <div>
          <input
            id={inputId}
            className="visually-hidden file-input"
            type="file"
            accept={TYPES.join(',')}
            onChange={(event) => pick(event.target.files?.[0])}
          />
          <label htmlFor={inputId} className="button">
            Choose a picture
          </label>
          <p className="hint">A jpg, png or gif of at most 5 MB.</p>
        </div>
      </div>
      {image ? (
        <div className="crop">
          <canvas ref={preview} className="crop__preview" role="img" aria-label="The part of the picture that will be kept" />
          <Slider label="Zoom" value={crop.zoom} min={1} max={4} step={0.1} onChange={(zoom) => setCrop({ ...crop, zoom })} />
          <Slider label="Left to right" value={crop.x} min={0} max={100} step={1} onChange={(x) => setCrop({ ...crop, x })} />
          <Slider label="Top to bottom" value={crop.y} min={0} max={100} step={1} onChange={(y) => setCrop({ ...crop, y })} />
          <div className="actions">
            <button type="button" className="button button--primary" onClick={() => void save()} disabled={progress !== null}>
              Save picture
            </button>
            <button type="button" className="button" onClick={() => setImage(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {progress !== null ? (
        <label className="progress">
          Uploading
          <progress max={1} value={progress} />
        </label>
      ) : null}
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
    </section>
  );
}

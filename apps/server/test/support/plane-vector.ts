/**
 * A unit vector of the sentence model's size (512) at `angle` (radians) in the plane of the first
 * two axes: answers' meanings whose closeness a test sets by hand (cosine = cos of the angle between).
 */
export function planeVector(angle: number): Float32Array {
  const values = new Float32Array(512);
  values[0] = Math.cos(angle);
  values[1] = Math.sin(angle);
  return values;
}
